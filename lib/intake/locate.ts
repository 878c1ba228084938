import type { HandedOverCall } from "../calls/handed-over";
import { getGeocoder, type GeocodeResult } from "../geocoding/geocoder";
import { GEOCODE_TEXT_LIMIT } from "../calls/sanitise";

/** A call event located: geocoded from its text when it has no coordinates, ready to write. */
export interface LocatedCall {
  call: HandedOverCall;
  payloadKey: string;
  /** The geocoder's answer (null: nothing matched, or nothing to geocode). */
  geocode: GeocodeResult | null;
  /** Why the geocoder failed, when it did: the call is written without new coordinates. */
  geocodeFailure?: unknown;
}

/**
 * Geocodes before writing, so that the call is written once, with its coordinates and in its
 * incident. The payload is already archived: a geocoder that fails loses nothing.
 */
export async function locateCall(call: HandedOverCall, payloadKey: string): Promise<LocatedCall> {
  if (call.reported || call.location === "") return { call, payloadKey, geocode: null };
  try {
    // Bounded work per field: no real address is longer, and a megabyte would take seconds.
    return { call, payloadKey, geocode: await getGeocoder().geocode(call.location.slice(0, GEOCODE_TEXT_LIMIT)) };
  } catch (error) {
    return { call, payloadKey, geocode: null, geocodeFailure: error };
  }
}
