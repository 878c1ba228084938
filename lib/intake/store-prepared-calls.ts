import { type LocatedPoint, locatedPoint, type ReceivedCall, storeReceivedCalls } from "../calls/write/write-calls";
import { driverErrorCause } from "../db/driver-error";
import { getGeocoder, type GeocodeResult } from "../geocoding/geocoder";
import { UNCERTAINTY_METRES } from "../geocoding/precision";
import { groupingEnabled, placementQuery } from "../incidents/grouping";
import type { WebhookCall } from "../webhook/payload";
import { GEOCODE_TEXT_LIMIT } from "../webhook/sanitise";
import { arrivedSigned } from "./keys";

/** A call event made ready to store: parsed, and geocoded from its text when it has no coordinates. */
export interface PreparedCall {
  call: WebhookCall;
  payloadKey: string;
  /** The geocoder's answer (null: nothing matched, or nothing to geocode). */
  geocode: GeocodeResult | null;
  /** Why the geocoder failed, when it did: the call is stored without new coordinates. */
  geocodeFailure?: unknown;
}

/**
 * Geocodes before storing, so that the call is written once, with its coordinates and in its
 * incident. The payload is already archived: a geocoder that fails loses nothing.
 */
export async function prepareCall(call: WebhookCall, payloadKey: string): Promise<PreparedCall> {
  if (call.reported || call.location === "") return { call, payloadKey, geocode: null };
  try {
    // Bounded work per field: no real address is longer, and a megabyte would take seconds.
    return { call, payloadKey, geocode: await getGeocoder().geocode(call.location.slice(0, GEOCODE_TEXT_LIMIT)) };
  } catch (error) {
    return { call, payloadKey, geocode: null, geocodeFailure: error };
  }
}

/**
 * What the calls' door stores: the platform's point before the geocoded one. The platforms send
 * no accuracy with coordinates: they are taken as a point (address_point; docs/geocoding.md).
 */
function toReceivedCall({ call, payloadKey, geocode, geocodeFailure }: PreparedCall): ReceivedCall {
  const point: LocatedPoint | null = call.reported
    ? { ...call.reported, precision: "address_point", uncertaintyMeters: UNCERTAINTY_METRES.address_point, source: "platform", matched: null }
    : geocode && locatedPoint(geocode);
  return { call, payloadKey, point, geocoderFailed: geocodeFailure !== undefined, verified: arrivedSigned(payloadKey) };
}

/**
 * The first `size` items of distinct conversations, in order, and the rest, in order. A statement
 * that stores received calls upserts a conversation's row once, so its later items wait for a later batch,
 * which keeps each conversation's deliveries in the order they came.
 */
export function firstOfEachConversation<T>(items: T[], size: number, conversationOf: (item: T) => string): { batch: T[]; rest: T[] } {
  const batch: T[] = [];
  const rest: T[] = [];
  const conversations = new Set<string>();
  for (const item of items) {
    const conversation = conversationOf(item);
    if (batch.length < size && !conversations.has(conversation)) {
      conversations.add(conversation);
      batch.push(item);
    } else {
      rest.push(item);
    }
  }
  return { batch, rest };
}

/** PostgreSQL's SQLSTATE of a failed statement, through Prisma's driver adapter or node-postgres. */
function sqlState(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Object; cause = (cause as { cause?: unknown }).cause) {
    const code = driverErrorCause(cause)?.originalCode ?? (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The grouping rule the door places received calls by, while grouping is on (docs/incidents.md). */
const placement = () => (groupingEnabled() ? placementQuery : undefined);

/**
 * Stores a batch (lib/calls/write/received.ts) and answers each call's outcome. When the database refuses the
 * batch's statement for what a row holds (SQLSTATE classes 22 and 23: a value out of range, a
 * constraint), each call is stored on its own, one after another, so that such a call fails only
 * itself. Any other failure (the database down, a timeout) fails the whole batch at once: trying
 * each call would only wait that many times longer before each webhook defers its call.
 */
export async function storeEach(prepared: PreparedCall[]): Promise<PromiseSettledResult<void>[]> {
  try {
    await storeReceivedCalls(prepared.map(toReceivedCall), placement());
    return prepared.map(() => ({ status: "fulfilled", value: undefined }));
  } catch (error) {
    const state = sqlState(error);
    if (prepared.length === 1 || !(state?.startsWith("22") || state?.startsWith("23"))) {
      return prepared.map(() => ({ status: "rejected", reason: error }));
    }
    const outcomes: PromiseSettledResult<void>[] = [];
    for (const call of prepared) {
      try {
        await storeReceivedCalls([toReceivedCall(call)], placement());
        outcomes.push({ status: "fulfilled", value: undefined });
      } catch (reason) {
        outcomes.push({ status: "rejected", reason });
      }
    }
    return outcomes;
  }
}
