import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { DomainError, invalidParameter } from "../domain-error";
import { streetsNotInCentreData } from "../geocoding/centre/loaded";
import { GeocoderUnavailableError, type GeocodeResult, getGeocoder } from "../geocoding/geocoder";
import { PRECISIONS } from "../geocoding/types";
import { type CallCorrection, type CallWrites, locatedPoint, type LockedCall } from "./write/write-calls";

const unreachable = (error: unknown) => {
  if (!(error instanceof GeocoderUnavailableError)) throw error;
  return new DomainError("GEOCODING_ERROR", "The geocoder could not be reached; nothing was changed, try again", { cause: error });
};

/**
 * Refuses a location naming a street the centre's GIS does not have, in a community it covers
 * (docs/calls.md, "Corrections"), unless the dispatcher confirmed it: the other geocoders would
 * place it, often at the town's centre, and a dispatcher who typed a street expects that street.
 * STREET_NOT_IN_GIS says which streets and where they would go; a place the GIS matched is never
 * asked about.
 */
async function requireStreetKnown(text: string, found: GeocodeResult | null, confirmed: boolean): Promise<void> {
  if (confirmed || found?.source === "centre_gis") return;
  const missing = await streetsNotInCentreData(text).catch((error: unknown) => {
    throw unreachable(error);
  });
  if (!missing) return;
  const community = missing.community.replace(/\b\w/g, (letter) => letter.toUpperCase());
  const placed = found ? `; send confirm_coarse: true to place it at ${found.label} (${found.precision})` : "";
  throw new DomainError(
    "STREET_NOT_IN_GIS",
    `The centre's GIS has no ${missing.streets.join(" or ")} in ${community}; nothing was changed${placed}`,
    { extra: { community, streets: missing.streets, to_precision: found?.precision ?? null } },
  );
}

/**
 * A corrected location's point, from the geocoder that places arriving calls (lib/geocoding). A
 * street the centre's GIS lacks in a community it covers is refused unless confirmed (`confirmCoarse`);
 * a text no geocoder knows is a 400 (the dispatcher rewords it; a correction never leaves a call
 * without a point it had); a geocoder that could not answer is GEOCODING_ERROR, worth a retry.
 * Either way nothing changes.
 */
export async function geocodeCorrection(text: string, { confirmCoarse = false }: { confirmCoarse?: boolean } = {}): Promise<NonNullable<CallCorrection["location"]>> {
  let found;
  try {
    found = await getGeocoder().geocode(text);
  } catch (error) {
    throw unreachable(error);
  }
  await requireStreetKnown(text, found, confirmCoarse);
  if (!found) throw invalidParameter("Unknown location", `No place found for location "${text}"; nothing was changed`);
  return { text, ...locatedPoint(found) };
}

/**
 * Refuses a location less exact than the call's (docs/calls.md, "Corrections") unless the
 * dispatcher confirmed it: PRECISION_LOWERED, with both precisions for the dashboard's question.
 * A call of unknown precision has nothing to lose.
 */
function requirePrecisionKept(call: LockedCall, location: CallCorrection["location"], confirmed: boolean): void {
  if (!location || confirmed || call.location_precision === null) return;
  if (PRECISIONS.indexOf(location.precision) <= PRECISIONS.indexOf(call.location_precision)) return;
  throw new DomainError(
    "PRECISION_LOWERED",
    `The new location is less exact (${location.precision}) than the call's (${call.location_precision}); send confirm_lower_precision: true to take it`,
    { extra: { from_precision: call.location_precision, to_precision: location.precision } },
  );
}

/**
 * A corrected call placed again by the grouping rule, in the correction's transaction, answering
 * the incident it ended in and the one it left (lib/incidents/regroup.ts regroupCorrectedCall):
 * grouping passes it in through the PATCH's caller, so calls never imports incidents.
 */
export type Regroup = (writes: CallWrites, callId: string) => Promise<{ incidentId: string; movedOutOf?: string }>;

/**
 * A dispatcher's correction of one call, in the transaction that locked it (docs/calls.md,
 * "Corrections"): a location less exact than the call's only when confirmed; the door keeps the
 * agent's values and writes the correction rows; a new type or location places the call again by
 * the grouping rule (`regroup`); the audit row names the actor, what changed and
 * the incident the call ended in. Nothing to change: nothing written. Answers the incident the
 * call was moved out of, when it was (its other calls stay there).
 */
export async function correctCall(
  writes: CallWrites,
  call: LockedCall & { conversationId: string },
  correction: CallCorrection,
  actor: Actor,
  { confirmLowerPrecision = false, regroup }: { confirmLowerPrecision?: boolean; regroup: Regroup },
): Promise<{ movedOutOf?: string }> {
  if (Object.values(correction).every((value) => value === undefined)) return {};
  requirePrecisionKept(call, correction.location, confirmLowerPrecision);
  const changed = await writes.correctCall(call.id, correction, actor);
  if (changed.length === 0) return {};
  const placed = changed.some((value) => value.field !== "severity") ? await regroup(writes, call.id) : undefined;
  const before = Object.fromEntries(changed.map((value) => [value.field, value.from]));
  const after = Object.fromEntries(changed.map((value) => [value.field, value.to]));
  await recordAudit(writes.tx, actor, {
    action: "call.corrected",
    target: { kind: "call", id: call.conversationId },
    before,
    after: placed === undefined ? after : { ...after, incident_id: placed.incidentId },
  });
  return { movedOutOf: placed?.movedOutOf };
}
