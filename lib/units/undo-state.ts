import { type Actor, actorRef } from "../access/actor";
import { CLOSED_STATUSES } from "../calls/workflow";
import { writeCalls } from "../calls/write/write-calls";
import { notFound } from "../domain-error";
import { undoIncidentMoveOf, undoRefused, UNDO_WINDOW_SECONDS } from "../incidents/undo-status";
import { openAssignments } from "./follow";
import { getUnit } from "./read";
import type { Unit } from "./schema";
import { UNIT_STATE_RULES, type UnitState } from "./states";
import { closeAssignment, latestStateChanges, lockUnits, moveUnit, reopenAssignment } from "./write";

/**
 * POST /api/units/{id}/undo-state: reverts exactly one state move of a unit (docs/units.md, "Undo"),
 * its latest, made by the asker within UNDO_WINDOW_SECONDS (the incidents' window), when nothing
 * has moved the unit since. The unit takes its state before back, with what the move did:
 * - a report within its assignment (en route, on scene...): the state only;
 * - a send (a free unit dispatched): its assignment closes and it is free again; the incident's
 *   move to dispatched that the send made is reverted too once no other unit serves it;
 * - a clearing (available, out of service from an incident): its assignment opens again, and the
 *   incident's close that its last unit's clearing made is reverted first.
 * A unit taken from another incident (sent with confirmation) is not undone here: it is sent back.
 * UNDO_REFUSED says why, and nothing changes. The undo is a move of its own: its history row names
 * the move (`undoes`), its audit entry is `unit.state_undone`. One transaction behind the feed's lock.
 */
export async function undoUnitState(unitId: string, changeId: string, actor: Actor): Promise<Unit> {
  await writeCalls(async (writes) => {
    await writes.lockChangeFeed();
    const [unit] = await lockUnits(writes.tx, [unitId]);
    if (!unit) throw notFound(`No unit with id ${unitId}`);
    const [latest, before] = await latestStateChanges(writes.tx, unitId, 2);
    if (latest?.id !== changeId) {
      const [change] = await writes.tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM unit_state_changes WHERE id = ${changeId}::bigint AND unit_id = ${unitId}`;
      if (!change) throw notFound(`No state move ${changeId} of this unit`);
      throw undoRefused(`${unit.call_sign} has moved since`);
    }
    if (latest.undoes !== null) throw undoRefused("This is an undo itself; move the unit again instead");
    if (latest.changed_by !== actorRef(actor)) throw undoRefused("Only who made a move may undo it");
    if (latest.age > UNDO_WINDOW_SECONDS) throw undoRefused(`A move is undone within ${UNDO_WINDOW_SECONDS} s of it`);
    if (latest.from_state === null || unit.state !== latest.state) throw undoRefused(`${unit.call_sign} has no move to undo`);
    const [from, to] = [UNIT_STATE_RULES[latest.from_state as UnitState], UNIT_STATE_RULES[latest.state as UnitState]];
    if (from.assigned && to.assigned && before?.incident_id !== latest.incident_id) {
      throw undoRefused(`${unit.call_sign} was taken from another incident: send it back there instead`);
    }
    let incidentId = unit.incident_id;
    if (!from.assigned && to.assigned) {
      // A send: the unit leaves the incident, which goes back with it when no other unit serves it.
      await closeAssignment(writes.tx, unit.id);
      incidentId = null;
      if (latest.incident_change_id && latest.incident_id && (await openAssignments(writes.tx, latest.incident_id)) === 0) {
        await undoIncidentMoveOf(writes, latest.incident_id, latest.incident_change_id, actor);
      }
    } else if (from.assigned && !to.assigned) {
      // A clearing: the incident reopens first when the clearing closed it, then the unit serves it again.
      const served = before?.incident_id ?? null;
      if (latest.incident_change_id && served) await undoIncidentMoveOf(writes, served, latest.incident_change_id, actor);
      incidentId = (await reopenAssignment(writes.tx, unit.id)) ?? null;
      if (incidentId === null) throw undoRefused(`${unit.call_sign} has no assignment to go back to`);
      const [incident] = await writes.tx.$queryRaw<{ status: string }[]>`SELECT status FROM incidents WHERE id = ${incidentId}`;
      if (!incident || (CLOSED_STATUSES as readonly string[]).includes(incident.status)) throw undoRefused("Its incident is closed since");
    }
    await moveUnit(writes.tx, unit, { state: latest.from_state as UnitState, incidentId, position: null, undoes: latest.id }, actor);
  });
  return getUnit(unitId);
}
