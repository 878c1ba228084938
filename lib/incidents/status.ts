import { type Actor, actorRef } from "../access/actor";
import { acknowledgeWithWork } from "../acknowledgements/acknowledge";
import { recordAudit } from "../audit/record-audit";
import type { CallWrites } from "../calls/write/write-calls";
import { canTransition, invalidTransition } from "../calls/workflow";
import { uuid7 } from "../db/uuid7";
import { STATUSES, type CallStatus } from "../vocabulary";

/** What a status move may carry (docs/incidents.md, "Dispatch reason and disposition"). */
export interface StatusMoveDetails {
  /** Why an incident is dispatched with no unit on it. */
  dispatchReason?: string | null;
  /** How a closed incident ended (lib/incidents/dispositions.ts, or UNITS_CLEARED). */
  disposition?: string | null;
}

/**
 * An incident's status move, in its transaction, the incident locked: the incident moves along the
 * calls' workflow (lib/calls/workflow.ts), and so does each of its open calls that may make that
 * move (a call already further along keeps its status), each move recorded in the call's history
 * under the actor's name, and the change in the audit trail and in incident_status_changes (this
 * file is that table's one door) with its reason or disposition and what it moved, so an undo
 * reverts exactly it (lib/incidents/undo-status.ts). A move to dispatched or en route acknowledges
 * the incident's alert. Setting the current status again changes nothing. Answers the change's id
 * (undefined: nothing changed).
 */
export async function changeIncidentStatus(
  writes: CallWrites,
  incident: { id: string; status: string },
  status: CallStatus,
  actor: Actor,
  details: StatusMoveDetails = {},
): Promise<string | undefined> {
  const from = incident.status as CallStatus;
  if (from === status) return undefined;
  if (!canTransition(from, status)) throw invalidTransition(from, status);
  // The first dispatch is kept: the queue's timer says "since dispatched" from then (docs/dashboard.md, "Times").
  const [before] = await writes.tx.$queryRaw<{ dispatched_at: Date | null }[]>`SELECT dispatched_at FROM incidents WHERE id = ${incident.id}`;
  await writes.tx.$executeRaw`UPDATE incidents SET status = ${status}, updated_at = CURRENT_TIMESTAMP,
    dispatched_at = CASE WHEN ${status} IN ('dispatched', 'enroute') THEN COALESCE(dispatched_at, CURRENT_TIMESTAMP) ELSE dispatched_at END
    WHERE id = ${incident.id}`;
  const movable = STATUSES.filter((callStatus) => canTransition(callStatus, status));
  // Read under the feed's lock and the incident's, which every writer of its calls takes first: what moves next.
  const calls = await writes.tx.$queryRaw<{ id: string; from: string }[]>`
    SELECT id, status AS "from" FROM calls WHERE incident_id = ${incident.id} AND status = ANY(${movable}::text[]) ORDER BY id`;
  await writes.setIncidentCallsStatus(incident.id, movable, status, actor);
  const changeId = await recordStatusChange(writes, incident.id, { from, status, actor, details, calls, dispatchedAtBefore: before.dispatched_at });
  await recordAudit(writes.tx, actor, {
    action: "incident.status_changed",
    target: { kind: "incident", id: incident.id },
    before: { status: from },
    after: { status, ...(details.dispatchReason ? { dispatch_reason: details.dispatchReason } : {}), ...(details.disposition ? { disposition: details.disposition } : {}) },
  });
  // The alert ends with the work: a dispatch (or en route) acknowledges its new calls (docs/dashboard.md, "Alerts").
  if (status === "dispatched" || status === "enroute") await acknowledgeWithWork(writes.tx, incident.id, actor, "dispatched");
  return changeId;
}

interface StatusChangeRow {
  from: string;
  status: string;
  actor: Actor;
  details: StatusMoveDetails;
  calls: readonly { id: string; from: string }[];
  dispatchedAtBefore: Date | null;
  /** An undo's row: the move it reverted. */
  undoes?: string;
}

/** A row of incident_status_changes, timed after the calls' own history rows of the move. */
export async function recordStatusChange(writes: CallWrites, incidentId: string, row: StatusChangeRow): Promise<string> {
  const id = uuid7();
  await writes.tx.$executeRaw`
    INSERT INTO incident_status_changes (id, incident_id, from_status, status, changed_by, changed_by_name, dispatch_reason, disposition, calls, dispatched_at_before, undoes)
    VALUES (${id}, ${incidentId}, ${row.from}, ${row.status}, ${actorRef(row.actor)}, ${row.actor.name}, ${row.details.dispatchReason ?? null},
      ${row.details.disposition ?? null}, ${JSON.stringify(row.calls)}::jsonb, ${row.dispatchedAtBefore}, ${row.undoes ?? null})`;
  return id;
}
