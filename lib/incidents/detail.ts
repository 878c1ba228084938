import { trainingOnly } from "../access/status-rule";
import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/record";
import { withCallStore } from "../calls/store";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { toIncidentRecord } from "./record";
import type { IncidentDetail } from "./schema";

/** GET /api/incidents/{id}: the incident and every one of its calls, oldest first. */
export async function getIncident(id: string): Promise<IncidentDetail> {
  return withCallStore(async (db) => {
    const incident = await db.incident.findUnique({ where: { id } });
    if (!incident) throw notFound(`No incident with id ${id}`);
    const calls = await db.$queryRaw<ListedCall[]>(Prisma.sql`
      SELECT ${selectList} FROM calls c WHERE c.incident_id = ${id} ORDER BY c.occurred_at, c.id`);
    return { ...toIncidentRecord(incident), training: await trainingOnly(db, id), calls: calls.map(toCallRecord) };
  });
}
