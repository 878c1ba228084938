import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { DomainError, invalidParameter } from "../domain-error";
import { GeocoderUnavailableError, getGeocoder } from "../geocoding/geocoder";
import { PRECISIONS } from "../geocoding/types";
import { type CallCorrection, type CallWrites, locatedPoint, type LockedCall } from "./write/write-calls";

/**
 * A corrected location's point, from the geocoder that places arriving calls (lib/geocoding). A
 * text no geocoder knows is a 400 (the dispatcher rewords it; a correction never leaves a call
 * without a point it had); a geocoder that could not answer is GEOCODING_ERROR, worth a retry.
 * Either way nothing changes.
 */
export async function geocodeCorrection(text: string): Promise<NonNullable<CallCorrection["location"]>> {
  let found;
  try {
    found = await getGeocoder().geocode(text);
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    throw new DomainError("GEOCODING_ERROR", "The geocoder could not be reached; nothing was changed, try again", { cause: error });
  }
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
