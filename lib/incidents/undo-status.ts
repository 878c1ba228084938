import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { type CallWrites, writeCalls } from "../calls/write/write-calls";
import { DomainError, notFound } from "../domain-error";
import type { CallStatus } from "../vocabulary";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";
import { recordStatusChange } from "./status";
import { type StatusChangeRow, statusChanges } from "./status-changes";

/**
 * How long after a move its maker may still undo it. The dashboard offers the undo for 10 s
 * (docs/dashboard.md, "Undo"); the server allows more, so an undo pressed at the tenth second is
 * not lost to the request's way there.
 */
export const UNDO_WINDOW_SECONDS = 60;

/** An undo the rule refuses (409 UNDO_REFUSED), saying why. */
export const undoRefused = (why: string) => new DomainError("UNDO_REFUSED", `${why}: nothing was undone`);


/**
 * POST /api/incidents/{id}/undo-status: reverts exactly one status move (docs/incidents.md, "Undo"),
 * the incident's latest, made by the asker within UNDO_WINDOW_SECONDS, when nothing else has changed
 * since: not its status, not a unit sent to it or cleared from it, not one of its calls' statuses.
 * Then the incident takes its previous status and dispatch time back, and each call the move moved
 * takes its previous status back (a history row each, under the asker's name): the workflow never
 * moves backwards, so an undo is the one way back, and it is a change of its own (its own row in
 * incident_status_changes naming the move, an audit entry `incident.status_undone`). One
 * transaction behind the feed's lock and the incident's, as the move itself.
 */
export async function undoIncidentStatus(incidentId: string, changeId: string, actor: Actor): Promise<IncidentDetail> {
  await writeCalls(async (writes) => {
    const incident = await lockIncident(writes, incidentId);
    await requireMayAct(writes.tx, actor, { incident: incidentId });
    const [latest] = await statusChanges(writes.tx, incidentId, 1);
    const [change] = await writes.tx.$queryRaw<{ undoes: string | null; changed_by: string; age: number }[]>`
      SELECT undoes, changed_by, EXTRACT(EPOCH FROM clock_timestamp() - changed_at)::float8 AS age
      FROM incident_status_changes WHERE id = ${changeId} AND incident_id = ${incidentId}`;
    if (!change) throw notFound(`No status move ${changeId} of this incident`);
    if (change.undoes !== null) throw undoRefused("This is an undo itself; move the incident again instead");
    if (change.changed_by !== actorRef(actor)) throw undoRefused("Only who made a move may undo it");
    if (change.age > UNDO_WINDOW_SECONDS) throw undoRefused(`A move is undone within ${UNDO_WINDOW_SECONDS} s of it`);
    if (latest.id !== changeId || incident.status !== latest.status) throw undoRefused("The incident has moved since");
    const [since] = await writes.tx.$queryRaw<{ units: boolean; calls: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM unit_assignments WHERE incident_id = ${incidentId}
          AND (assigned_at > ${latest.changed_at} OR cleared_at > ${latest.changed_at})) AS units,
        EXISTS (SELECT 1 FROM call_status_changes h JOIN calls c ON c.id = h.call_id
          WHERE c.incident_id = ${incidentId} AND h.changed_at > ${latest.changed_at}) AS calls`;
    if (since.units) throw undoRefused("A unit was sent to it or cleared from it since");
    if (since.calls) throw undoRefused("One of its calls has moved since");
    await revertStatusMove(writes, incidentId, latest, actor);
  });
  return getIncident(incidentId);
}

/**
 * Reverts the incident's move `changeId` when it is still its latest (its unit's undo: a send that
 * dispatched it, a last unit clearing that resolved it; lib/units/undo-state.ts), in the caller's
 * transaction behind the feed's lock. UNDO_REFUSED when the incident has moved since.
 */
export async function undoIncidentMoveOf(writes: CallWrites, incidentId: string, changeId: string, actor: Actor): Promise<void> {
  const incident = await lockIncident(writes, incidentId);
  const [latest] = await statusChanges(writes.tx, incidentId, 1);
  if (latest?.id !== changeId || incident.status !== latest.status) throw undoRefused("Its incident has moved since");
  await revertStatusMove(writes, incidentId, latest, actor);
}

/** The revert itself: the incident's previous status and dispatch time, its calls' statuses, the undo's row and audit entry. */
async function revertStatusMove(writes: CallWrites, incidentId: string, latest: StatusChangeRow, actor: Actor): Promise<void> {
  await writes.tx.$executeRaw`
    UPDATE incidents SET status = ${latest.from_status}, dispatched_at = ${latest.dispatched_at_before}, updated_at = CURRENT_TIMESTAMP
    WHERE id = ${incidentId}`;
  for (const call of latest.calls) {
    await writes.setCallStatus({ id: call.id, status: latest.status as CallStatus }, call.from as CallStatus, actor);
  }
  await recordStatusChange(writes, incidentId, {
    from: latest.status,
    status: latest.from_status,
    actor,
    details: {},
    calls: latest.calls.map((call) => ({ id: call.id, from: latest.status })),
    dispatchedAtBefore: null,
    undoes: latest.id,
  });
  await recordAudit(writes.tx, actor, {
    action: "incident.status_undone",
    target: { kind: "incident", id: incidentId },
    before: { status: latest.status },
    after: { status: latest.from_status, undoes: latest.id },
  });
}
