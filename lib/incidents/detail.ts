import { trainingOnly } from "../access/status-rule";
import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { readPossibleDuplicates } from "./duplicates";
import { metresBetween } from "./grouping";
import { toIncidentRecord } from "./to-incident-record";
import type { IncidentDetail } from "./schema";
import { latestStatusChange } from "./status-changes";

/**
 * GET /api/incidents/{id}: the incident, its possible duplicates, its latest status move (with its
 * dispatch reason or disposition), how many units are on it and have cleared, and every one of its
 * calls, oldest first, each with its own address, precision and distance from the incident's centre.
 */
export async function getIncident(id: string): Promise<IncidentDetail> {
  return withDatabase(async (db) => {
    const incident = await db.incident.findUnique({ where: { id } });
    if (!incident) throw notFound(`No incident with id ${id}`);
    const calls = await db.$queryRaw<ListedCall[]>(Prisma.sql`
      SELECT ${selectList} FROM calls c WHERE c.incident_id = ${id} ORDER BY c.occurred_at, c.id`);
    const [sent] = await db.$queryRaw<{ open: number; cleared: number }[]>`
      SELECT count(*) FILTER (WHERE cleared_at IS NULL)::int AS open, count(cleared_at)::int AS cleared
      FROM unit_assignments WHERE incident_id = ${id}`;
    const centre = incident.latitude !== null && incident.longitude !== null ? { lat: incident.latitude, lon: incident.longitude } : null;
    return {
      ...toIncidentRecord(incident),
      possible_duplicates: (await readPossibleDuplicates(db, [id])).get(id) ?? [],
      training: await trainingOnly(db, id),
      status_change: await latestStatusChange(db, id),
      units_sent: sent,
      calls: calls.map((call) => ({
        ...toCallRecord(call),
        distance_m:
          centre && call.latitude !== null && call.longitude !== null
            ? Math.round(metresBetween(centre, { lat: call.latitude, lon: call.longitude }))
            : null,
      })),
    };
  });
}
