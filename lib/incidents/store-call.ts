import type { Db } from "../db/client";
import { type Arrival, assignIncidents, GROUPING_TRANSACTION, lockForGrouping, type Tx } from "./grouping";

/**
 * The webhook's seam (lib/intake): writes one call in a transaction that first finds its incident.
 * A conversation already stored keeps its incident (a redelivery is not regrouped); a new one is
 * grouped under the grouping locks, which are held until the call is committed.
 */
export async function storeInIncident<T>(
  db: Db,
  conversationId: string,
  arrival: Arrival,
  write: (tx: Tx, incidentId: string) => Promise<T>,
): Promise<T> {
  return db.$transaction(async (tx) => {
    await lockForGrouping(tx, [arrival]);
    const [existing] = await tx.$queryRaw<{ incident_id: string }[]>`
      SELECT incident_id FROM calls WHERE conversation_id = ${conversationId}`;
    const incidentId = existing?.incident_id ?? (await assignIncidents(tx, [arrival])).incidentIds[0];
    return write(tx, incidentId);
  }, GROUPING_TRANSACTION);
}
