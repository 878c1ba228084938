import type { CallWrites } from "../calls/write/write-calls";
import { OPEN_STATUSES } from "../calls/workflow";
import { isStreetLevel } from "../geocoding/precision";
import type { Precision } from "../geocoding/types";
import type { CallStatus } from "../vocabulary";
import { groupingEnabled, groupingRule, metresBetween } from "./grouping";
import { openIncident } from "./open-incident";

interface Placed {
  id: string;
  incident_id: string;
  type: string;
  at: Date;
  lat: number | null;
  lon: number | null;
  precision: Precision | null;
  location: string;
  simulation: boolean;
  exercise_id: string | null;
  status: CallStatus;
  grouping_pending: boolean;
  arranged_by_hand: boolean;
  incident_type: string;
  call_count: number;
  located_count: number;
  incident_lat: number | null;
  incident_lon: number | null;
  incident_precision: Precision | null;
  /** The call's normalised address is its incident's (incident_location_key). */
  same_address: boolean;
}

/**
 * Whether the call, as it is now, still belongs with the other calls of its incident: the same
 * normalised address, or, when both it and the incident are street level or better, within D of
 * the others' centroid (the grouping rule, docs/incidents.md).
 */
function fitsItsIncident(call: Placed, radiusMetres: number): boolean {
  if (call.call_count <= 1 || call.incident_type !== call.type) return false;
  if (call.same_address) return true;
  if (!isStreetLevel(call.precision) || !isStreetLevel(call.incident_precision)) return false;
  if (call.lat === null || call.lon === null || call.incident_lat === null || call.incident_lon === null) return true;
  const others = call.located_count - 1;
  if (others <= 0) return true;
  // The centroid of the other located calls, from the incident's centroid that includes this one.
  const lat = (call.incident_lat * call.located_count - call.lat) / others;
  const lon = (call.incident_lon * call.located_count - call.lon) / others;
  return metresBetween({ lat: call.lat, lon: call.lon }, { lat, lon }) <= radiusMetres;
}

/**
 * A corrected call (its type or location changed) placed again by the grouping rule
 * (docs/incidents.md, "Corrections"), in the correction's transaction (the feed lock is held):
 * - it stays when its incident was arranged by hand (merged or split), when it is closed or still
 *   waiting for the grouper, or when it still belongs with the other calls of its incident (same
 *   type, within D of their centroid);
 * - otherwise it joins the incident incident_for_call finds for it (its own left out);
 * - otherwise it keeps an incident of its own: the one it is in when it is its only call, else a
 *   new one with the call's status.
 * Answers the incident it ended in, and the one it left when other calls stay there.
 */
export async function regroupCorrectedCall(writes: CallWrites, callId: string): Promise<{ incidentId: string; movedOutOf?: string }> {
  const [call] = await writes.tx.$queryRaw<Placed[]>`
    SELECT c.id, c.incident_id, c.emergency_type AS type, c.occurred_at AS at, c.latitude AS lat, c.longitude AS lon,
      c.location_precision AS precision, c.location, c.simulation, c.exercise_id, c.status, c.grouping_pending, i.arranged_by_hand,
      i.emergency_type AS incident_type, i.call_count, i.located_count, i.latitude AS incident_lat, i.longitude AS incident_lon,
      i.location_precision AS incident_precision, incident_location_key(c.location) = i.location_key AS same_address
    FROM calls c JOIN incidents i ON i.id = c.incident_id WHERE c.id = ${callId}`;
  const rule = groupingRule(call.type);
  if (
    !groupingEnabled() ||
    call.arranged_by_hand ||
    call.grouping_pending ||
    !OPEN_STATUSES.includes(call.status) ||
    fitsItsIncident(call, rule.radiusMetres)
  ) {
    return { incidentId: call.incident_id };
  }
  const [found] = await writes.tx.$queryRaw<{ id: string | null }[]>`
    SELECT incident_for_call(${call.incident_id}, ${call.type}, ${call.at}, ${call.lat}::float8, ${call.lon}::float8,
      ${call.location}, ${call.simulation}, ${call.exercise_id}::text, ${rule.radiusMetres}::float8,
      ${rule.windowMinutes * 60}::float8, ${call.precision}::text) AS id`;
  const target = found.id ?? (call.call_count > 1 ? await openIncident(writes.tx, call.status, null) : call.incident_id);
  if (target === call.incident_id) return { incidentId: target };
  await writes.placeCalls([{ id: call.id, incident_id: target }]);
  return call.call_count > 1 ? { incidentId: target, movedOutOf: call.incident_id } : { incidentId: target };
}
