import type { CallWrites } from "../calls/write/write-calls";
import { OPEN_STATUSES } from "../calls/workflow";
import { isStreetLevel } from "../geocoding/precision";
import type { Precision } from "../geocoding/types";
import type { CallStatus } from "../vocabulary";
import { type GroupingRule, groupingEnabled, groupingRule, metresBetween } from "./grouping";
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
  phone: string | null;
  simulation: boolean;
  exercise_id: string | null;
  status: CallStatus;
  grouping_pending: boolean;
  arranged_by_hand: boolean;
  incident_type: string;
  call_count: number;
  incident_precision: Precision | null;
  /** The centre of the incident's other calls, as the incident's point is taken (its most precise located calls); null when none is located. */
  others_lat: number | null;
  others_lon: number | null;
  /** The call's normalised address is its incident's (incident_location_key). */
  same_address: boolean;
}

/**
 * Whether the call, as it is now, still belongs with the other calls of its incident: the same
 * normalised address, or, for an emergency of a place, when both it and the incident are street
 * level or better, within D of the others' centre (the grouping rule, docs/incidents.md).
 */
function fitsItsIncident(call: Placed, rule: GroupingRule): boolean {
  if (call.call_count <= 1 || call.incident_type !== call.type) return false;
  if (call.same_address) return true;
  if (rule.scope !== "place" || !isStreetLevel(call.precision) || !isStreetLevel(call.incident_precision)) return false;
  if (call.lat === null || call.lon === null || call.others_lat === null || call.others_lon === null) return true;
  return metresBetween({ lat: call.lat, lon: call.lon }, { lat: call.others_lat, lon: call.others_lon }) <= rule.radiusMetres;
}

/**
 * A corrected call (its type or location changed) placed again by the grouping rule
 * (docs/incidents.md, "Corrections"), in the correction's transaction (the feed lock is held):
 * - it stays when its incident was arranged by hand (merged or split), when it is closed or still
 *   waiting for the grouper, or when it still belongs with the other calls of its incident (same
 *   type, and the same address or, an emergency of a place, within D of their centre);
 * - otherwise it joins the incident incident_for_call finds for it (its own left out);
 * - otherwise it keeps an incident of its own: the one it is in when it is its only call, else a
 *   new one with the call's status.
 * Answers the incident it ended in, and the one it left when other calls stay there.
 */
export async function regroupCorrectedCall(writes: CallWrites, callId: string): Promise<{ incidentId: string; movedOutOf?: string }> {
  const [call] = await writes.tx.$queryRaw<Placed[]>`
    SELECT c.id, c.incident_id, c.emergency_type AS type, c.occurred_at AS at, c.latitude AS lat, c.longitude AS lon,
      c.location_precision AS precision, c.location, c.caller_phone AS phone, c.simulation, c.exercise_id, c.status,
      c.grouping_pending, i.arranged_by_hand, i.emergency_type AS incident_type, i.call_count,
      i.location_precision AS incident_precision, incident_location_key(c.location) = i.location_key AS same_address,
      o.lat AS others_lat, o.lon AS others_lon
    FROM calls c JOIN incidents i ON i.id = c.incident_id
    LEFT JOIN LATERAL (
      SELECT avg(l.latitude) FILTER (WHERE l.location_precision IS NOT DISTINCT FROM l.best) AS lat,
        avg(l.longitude) FILTER (WHERE l.location_precision IS NOT DISTINCT FROM l.best) AS lon
      FROM (
        SELECT k.latitude, k.longitude, k.location_precision,
          best_location_precision(array_agg(k.location_precision) OVER ()) AS best
        FROM calls k
        WHERE k.incident_id = c.incident_id AND k.id <> c.id AND k.latitude IS NOT NULL AND k.longitude IS NOT NULL
      ) l
    ) o ON true
    WHERE c.id = ${callId}`;
  const rule = groupingRule(call.type);
  if (
    !groupingEnabled() ||
    call.arranged_by_hand ||
    call.grouping_pending ||
    !OPEN_STATUSES.includes(call.status) ||
    fitsItsIncident(call, rule)
  ) {
    return { incidentId: call.incident_id };
  }
  const [found] = await writes.tx.$queryRaw<{ id: string | null }[]>`
    SELECT incident_for_call(${call.incident_id}, ${call.type}, ${call.at}, ${call.lat}::float8, ${call.lon}::float8,
      ${call.location}, ${call.simulation}, ${call.exercise_id}::text, ${rule.radiusMetres}::float8,
      ${rule.windowMinutes * 60}::float8, ${call.precision}::text, ${call.phone}::text, ${rule.scope === "place"}) AS id`;
  const target = found.id ?? (call.call_count > 1 ? await openIncident(writes.tx, call.status, null) : call.incident_id);
  if (target === call.incident_id) return { incidentId: target };
  await writes.placeCalls([{ id: call.id, incident_id: target }]);
  return call.call_count > 1 ? { incidentId: target, movedOutOf: call.incident_id } : { incidentId: target };
}
