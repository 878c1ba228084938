import type { Actor } from "../access/actor";
import { acknowledgeWithWork } from "../acknowledgements/acknowledge";
import { recordAudit } from "../audit/record-audit";
import type { CallWrites } from "../calls/write/write-calls";
import { canTransition, invalidTransition } from "../calls/workflow";
import { STATUSES, type CallStatus } from "../vocabulary";

/**
 * A status move of PATCH /api/incidents/{id}, in its transaction, the incident locked: the
 * incident moves along the calls' workflow (lib/calls/workflow.ts), and so does each of its open
 * calls that may make that move (a call already further along keeps its status), each move
 * recorded in the call's history under the actor's name, and the change in the audit trail.
 * A move to dispatched or en route acknowledges the incident's alert. Setting the current status
 * again changes nothing.
 */
export async function changeIncidentStatus(
  writes: CallWrites,
  incident: { id: string; status: string },
  status: CallStatus,
  actor: Actor,
): Promise<void> {
  const from = incident.status as CallStatus;
  if (from === status) return;
  if (!canTransition(from, status)) throw invalidTransition(from, status);
  // The first dispatch is kept: the queue's timer says "since dispatched" from then (docs/dashboard.md, "Times").
  await writes.tx.$executeRaw`UPDATE incidents SET status = ${status}, updated_at = CURRENT_TIMESTAMP,
    dispatched_at = CASE WHEN ${status} IN ('dispatched', 'enroute') THEN COALESCE(dispatched_at, CURRENT_TIMESTAMP) ELSE dispatched_at END
    WHERE id = ${incident.id}`;
  const movable = STATUSES.filter((callStatus) => canTransition(callStatus, status));
  await writes.setIncidentCallsStatus(incident.id, movable, status, actor);
  await recordAudit(writes.tx, actor, {
    action: "incident.status_changed",
    target: { kind: "incident", id: incident.id },
    before: { status: from },
    after: { status },
  });
  // The alert ends with the work: a dispatch (or en route) acknowledges its new calls (docs/dashboard.md, "Alerts").
  if (status === "dispatched" || status === "enroute") await acknowledgeWithWork(writes.tx, incident.id, actor, "dispatched");
}
