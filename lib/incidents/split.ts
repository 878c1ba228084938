import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record";
import { writeCalls } from "../calls/write";
import { uuid7 } from "../db/uuid7";
import { invalidParameter, notFound } from "../domain-error";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";

/**
 * POST /api/incidents/{id}/split: the call moves out into a new incident of its own (status
 * active; type, location and the rest derived from the call by the refresh trigger). A call alone
 * in its incident cannot be split out of it.
 */
export async function splitCall(id: string, conversationId: string, actor: Actor): Promise<IncidentDetail> {
  const newId = uuid7();
  await writeCalls(async (writes) => {
    await lockIncident(writes, id);
    const [call] = await writes.tx.$queryRaw<{ id: string; others: bigint }[]>`
      SELECT c.id, (SELECT count(*) FROM calls o WHERE o.incident_id = ${id} AND o.id <> c.id) AS others
      FROM calls c WHERE c.conversation_id = ${conversationId} AND c.incident_id = ${id}`;
    if (!call) throw notFound(`Incident ${id} has no call ${conversationId}`);
    if (call.others === 0n) throw invalidParameter("Invalid call_id", "The call is the incident's only call");
    // A placeholder (no calls yet, empty type and location) that the calls' trigger fills in
    // (incidents_add_calls).
    await writes.tx.$executeRaw`
      INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, first_call_at, last_call_at, call_count)
      VALUES (${newId}, '', '', 'active', '', '', now(), now(), 0)`;
    await writes.moveCall(call.id, newId);
    await recordAudit(writes.tx, actor, { action: "incident.split", target: { kind: "incident", id }, after: { call_id: conversationId, new_incident_id: newId } });
  });
  return getIncident(newId);
}
