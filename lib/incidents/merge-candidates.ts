import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import type { QueryValues } from "../query-parameters";
import { METRES_PER_DEGREE } from "./grouping";
import type { MergeCandidates, mergeCandidatesQueryParameters } from "./schema";
import { type IncidentFields, toIncidentRecord } from "./to-incident-record";

/** An open incident as the query reads it, with its distance from the incident merged into (metres). */
type CandidateRow = IncidentFields & { distance: number | null };

/** `text` as a LIKE pattern's literal part. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * GET /api/incidents/{id}/merge-candidates (docs/incidents.md, "Dispatcher actions"): every open
 * incident of its kind (training or real: a merge never mixes them) but itself, whose location
 * text or type contains `q` when given, nearest its point first (those without a point, or when it
 * has none, after, the latest call first); at most `limit`. It reads the open incidents (the status
 * index): the cost grows with open incidents, never with stored calls.
 */
export async function mergeCandidates(id: string, values: QueryValues<typeof mergeCandidatesQueryParameters>): Promise<MergeCandidates> {
  return withDatabase(async (db) => {
    const [incident] = await db.$queryRaw<{ latitude: number | null; longitude: number | null; simulation: boolean }[]>`
      SELECT latitude, longitude, simulation FROM incidents WHERE id = ${id}`;
    if (!incident) throw notFound(`No incident with id ${id}`);
    const { latitude: lat, longitude: lon } = incident;
    const distance = lat === null || lon === null
      ? Prisma.sql`NULL::float8`
      : Prisma.sql`${METRES_PER_DEGREE} * sqrt(power(i.latitude - ${lat}, 2) + power((i.longitude - ${lon}) * cos(radians(${lat}::float8)), 2))`;
    const words = values.q === undefined
      ? Prisma.empty
      : Prisma.sql` AND (i.location ILIKE ${`%${likeLiteral(values.q)}%`} OR replace(i.emergency_type, '_', ' ') ILIKE ${`%${likeLiteral(values.q)}%`})`;
    const rows = await db.$queryRaw<CandidateRow[]>`
      SELECT i.id, i.emergency_type AS "emergencyType", i.severity, i.status, i.location, i.latitude, i.longitude,
        i.location_precision AS "locationPrecision", i.location_uncertainty_m AS "locationUncertaintyM", i.location_matched AS "locationMatched",
        i.first_call_at AS "firstCallAt", i.last_call_at AS "lastCallAt", i.call_count AS "callCount", ${distance} AS distance
      FROM incidents i
      WHERE i.status IN ('active', 'dispatched', 'enroute') AND i.id <> ${id} AND i.simulation = ${incident.simulation}${words}
      ORDER BY distance NULLS LAST, i.last_call_at DESC, i.id
      LIMIT ${values.limit ?? 20}`;
    return {
      candidates: rows.map((row) => ({ ...toIncidentRecord(row), distance_m: row.distance === null ? null : Math.round(row.distance) })),
    };
  });
}
