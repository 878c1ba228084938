import type { Db } from "../db/client";
import type { StatusChange } from "./schema";

/** A row of incident_status_changes as the reads below select it. */
export interface StatusChangeRow {
  id: string;
  from_status: string;
  status: string;
  changed_at: Date;
  changed_by: string;
  changed_by_name: string;
  dispatch_reason: string | null;
  disposition: string | null;
  calls: { id: string; from: string }[];
  dispatched_at_before: Date | null;
  undoes: string | null;
}

/** The incident's status moves, newest first (one range of (incident_id, changed_at)). */
export function statusChanges(db: Pick<Db, "$queryRaw">, incidentId: string, limit: number): Promise<StatusChangeRow[]> {
  return db.$queryRaw<StatusChangeRow[]>`
    SELECT id, from_status, status, changed_at, changed_by, changed_by_name, dispatch_reason, disposition, calls, dispatched_at_before, undoes
    FROM incident_status_changes WHERE incident_id = ${incidentId} ORDER BY changed_at DESC, id DESC LIMIT ${limit}`;
}

/** The incident's latest status move, as its answers carry it (null: none). */
export async function latestStatusChange(db: Pick<Db, "$queryRaw">, incidentId: string): Promise<StatusChange | null> {
  const [row] = await statusChanges(db, incidentId, 1);
  if (!row) return null;
  return {
    id: row.id,
    from_status: row.from_status as StatusChange["from_status"],
    status: row.status as StatusChange["status"],
    changed_at: row.changed_at.toISOString(),
    changed_by_name: row.changed_by_name,
    dispatch_reason: row.dispatch_reason,
    disposition: row.disposition,
    undoes: row.undoes,
  };
}
