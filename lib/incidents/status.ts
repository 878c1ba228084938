import { type Actor, actorRef } from "../access/actor";
import { requireMayChangeStatus } from "../access/status-rule";
import { recordAudit } from "../audit/record";
import { bumpCallsVersion } from "../calls/cache";
import { withCallStore } from "../calls/store";
import { canTransition, invalidTransition } from "../calls/workflow";
import { STATUSES, type CallStatus } from "../vocabulary";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";

/**
 * PATCH /api/incidents/{id}: the incident moves along the calls' workflow (lib/calls/workflow.ts),
 * and so does each of its open calls that may make that move (a call already further along keeps
 * its status), each move recorded in the call's history under the actor's name, and the change in
 * the audit trail. Setting the current status again changes nothing.
 */
export async function updateIncidentStatus(id: string, status: CallStatus, actor: Actor): Promise<IncidentDetail> {
  const changed = await withCallStore((db) =>
    db.$transaction(async (tx) => {
      const incident = await lockIncident(tx, id);
      requireMayChangeStatus(actor, incident.simulation);
      const from = incident.status as CallStatus;
      if (from === status) return false;
      if (!canTransition(from, status)) throw invalidTransition(from, status);
      await tx.$executeRaw`UPDATE incidents SET status = ${status}, updated_at = CURRENT_TIMESTAMP WHERE id = ${id}`;
      const movable = STATUSES.filter((callStatus) => canTransition(callStatus, status));
      await tx.$executeRaw`
        WITH moved AS (
          UPDATE calls c SET status = ${status}, updated_at = CURRENT_TIMESTAMP
          FROM (SELECT id, status FROM calls WHERE incident_id = ${id} AND status = ANY(${movable}::text[]) FOR UPDATE) o
          WHERE c.id = o.id
          RETURNING c.id, o.status AS from_status
        )
        INSERT INTO call_status_changes (call_id, from_status, status, changed_by, changed_by_name)
        SELECT id, from_status, ${status}, ${actorRef(actor)}, ${actor.name} FROM moved`;
      await recordAudit(tx, actor, { action: "incident.status_changed", target: { kind: "incident", id }, before: { status: from }, after: { status } });
      return true;
    }),
  );
  if (changed) await bumpCallsVersion();
  return getIncident(id);
}
