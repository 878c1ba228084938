import { withDatabase } from "../db/with-database";
import { groupingRule } from "../incidents/grouping";
import type { CallStatus } from "../vocabulary";
import type { LocationDuplicates } from "./schema";

interface DuplicateRow {
  incident_id: string;
  emergency_type: string;
  severity: string;
  status: CallStatus;
  location: string;
  call_count: number;
  distance_m: number;
  seconds_apart: number;
}

/**
 * GET /api/locations/duplicates: the open incidents a call at this point of this type, taken now,
 * would be marked a possible duplicate of, nearest first: the trust rule itself (the SQL function
 * possible_duplicates, with the type's D and T), of the call's kind (real, or the exercise's). The
 * call-taker joins one (POST /api/calls `incident_id`) or takes the call as its own incident.
 * One index probe, whatever the calls stored.
 */
export async function locationDuplicates(query: { latitude: number; longitude: number; emergency_type: string; exercise_id?: string }): Promise<LocationDuplicates> {
  const rule = groupingRule(query.emergency_type);
  const exerciseId = query.exercise_id ?? null;
  const rows = await withDatabase((db) => db.$queryRaw<DuplicateRow[]>`
    SELECT inc.id AS incident_id, inc.emergency_type, inc.severity, inc.status, inc.location, inc.call_count,
      round(d.distance_m)::int AS distance_m, d.seconds_apart
    FROM possible_duplicates(NULL, ${query.emergency_type}, now(), ${query.latitude}::float8, ${query.longitude}::float8,
      ${exerciseId !== null}, ${exerciseId}::text, ${rule.radiusMetres}::float8, ${rule.windowMinutes * 60}::float8) d
    JOIN incidents inc ON inc.id = d.id
    ORDER BY d.distance_m, inc.id`);
  return { duplicates: rows };
}
