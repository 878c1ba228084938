import type { Db } from "../../db/client";

type Tx = Pick<Db, "$executeRaw">;

/** Every call of incident `from` into incident `to` (a dispatcher's merge); answers how many. */
export function moveIncidentCalls(tx: Tx, from: string, to: string): Promise<number> {
  return tx.$executeRaw`UPDATE calls SET incident_id = ${to}, grouping_pending = false, updated_at = CURRENT_TIMESTAMP WHERE incident_id = ${from}`;
}

/** One call into an incident (a dispatcher's split). */
export async function moveCall(tx: Tx, callId: string, incidentId: string): Promise<void> {
  await tx.$executeRaw`UPDATE calls SET incident_id = ${incidentId}, grouping_pending = false, updated_at = CURRENT_TIMESTAMP WHERE id = ${callId}`;
}

/** Waiting calls into the incidents the grouper placed them in. */
export async function placeCalls(tx: Tx, placed: readonly { id: string; incident_id: string }[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE calls c SET incident_id = t.incident_id, grouping_pending = false, grouped_at = now()
    FROM unnest(${placed.map((row) => row.id)}::text[], ${placed.map((row) => row.incident_id)}::text[]) AS t(id, incident_id)
    WHERE c.id = t.id`;
}
