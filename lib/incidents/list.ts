import { withDatabase } from "../db/with-database";
import type { Prisma } from "../db/generated/client";
import type { QueryValues } from "../query-parameters";
import { readPossibleDuplicates } from "./duplicates";
import { toIncidentRecord } from "./to-incident-record";
import type { IncidentList, incidentListQueryParameters } from "./schema";

/** GET /api/incidents: one page of matching incidents, latest call first, each with its possible duplicates, with the matching total. */
export async function listIncidents(values: QueryValues<typeof incidentListQueryParameters>): Promise<IncidentList> {
  const limit = values.limit ?? 50;
  const offset = values.offset ?? 0;
  const where: Prisma.IncidentWhereInput = {
    status: values.status,
    emergencyType: values.emergency_type,
    severity: values.severity,
  };
  const [incidents, total, duplicates] = await withDatabase(async (db) => {
    const [page, count] = await Promise.all([
      db.incident.findMany({ where, orderBy: [{ lastCallAt: "desc" }, { id: "asc" }], take: limit, skip: offset }),
      db.incident.count({ where }),
    ]);
    return [page, count, await readPossibleDuplicates(db, page.map((incident) => incident.id))] as const;
  });
  return {
    incidents: incidents.map((incident) => ({ ...toIncidentRecord(incident), possible_duplicates: duplicates.get(incident.id) ?? [] })),
    pagination: { limit, offset, total, has_more: offset + incidents.length < total },
    filters: {
      status: values.status ?? null,
      emergency_type: values.emergency_type ?? null,
      severity: values.severity ?? null,
    },
  };
}
