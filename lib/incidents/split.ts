import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { writeCalls } from "../calls/write/write-calls";
import { invalidParameter, notFound } from "../domain-error";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import { openIncident } from "./open-incident";
import type { IncidentDetail } from "./schema";

/**
 * POST /api/incidents/{id}/split: the call moves out into a new incident of its own (status
 * active; type, location and the rest derived from the call by the refresh trigger; it remembers
 * the incident it was split from, for the EIDO). A call alone
 * in its incident cannot be split out of it. Both incidents are then arranged by hand
 * (docs/incidents.md, "Corrections").
 */
export async function splitCall(id: string, conversationId: string, actor: Actor): Promise<IncidentDetail> {
  const newId = await writeCalls(async (writes) => {
    await lockIncident(writes, id);
    const [call] = await writes.tx.$queryRaw<{ id: string; others: bigint }[]>`
      SELECT c.id, (SELECT count(*) FROM calls o WHERE o.incident_id = ${id} AND o.id <> c.id) AS others
      FROM calls c WHERE c.conversation_id = ${conversationId} AND c.incident_id = ${id}`;
    if (!call) throw notFound(`Incident ${id} has no call ${conversationId}`);
    if (call.others === 0n) throw invalidParameter("Invalid call_id", "The call is the incident's only call");
    // Both incidents were arranged by hand: a correction of their calls keeps them where they are.
    const created = await openIncident(writes.tx, "active", id);
    await writes.tx.$executeRaw`UPDATE incidents SET arranged_by_hand = true WHERE id = ${id}`;
    await writes.moveCall(call.id, created);
    await recordAudit(writes.tx, actor, { action: "incident.split", target: { kind: "incident", id }, after: { call_id: conversationId, new_incident_id: created } });
    return created;
  });
  return getIncident(newId);
}
