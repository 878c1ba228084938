import type { Actor } from "../access/actor";
import { requireMayAct, trainingOnly } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { writeCalls } from "../calls/write/write-calls";
import { CLOSED_STATUSES } from "../calls/workflow";
import { DomainError, notFound } from "../domain-error";
import { lockIncident } from "../incidents/lock";
import { followUnitCleared, followUnitDispatched } from "./follow";
import type { AssignUnitsAnswer, AssignUnitsRequest } from "./schema";
import { UNIT_STATE_RULES, type UnitState, unavailableReason } from "./states";
import { incidentsInWords } from "./serving";
import { trainingMixReason } from "./training";
import { closeAssignment, lockUnits, moveUnit, openAssignment } from "./write";

/**
 * POST /api/incidents/{id}/units: sends units to an incident (docs/units.md, "Dispatch"). One
 * transaction: the feed's lock, the incident, then the units (FOR UPDATE, in id order), so of
 * concurrent requests for one unit each sees the other's outcome, and the partial unique index
 * unit_assignments_open_key refuses a second open assignment whatever happens. A unit that is not
 * available (busy, out of service) is refused with UNIT_UNAVAILABLE naming why in words (its call sign,
 * what it is doing and where: lib/units/serving.ts), unless `confirm`:
 * then its previous assignment closes (that incident follows: it may resolve) and it moves here.
 * Training and real units never mix (lib/units/training.ts): a real unit is never sent to a training
 * incident, nor a simulated one outside its exercise's: TRAINING_MIX, confirmed or not, before any
 * unit moves, so an exercise never closes a real assignment nor moves a real incident.
 */
export async function assignUnits(incidentId: string, request: AssignUnitsRequest, actor: Actor): Promise<AssignUnitsAnswer> {
  return writeCalls(async (writes) => {
    const incident = await lockIncident(writes, incidentId);
    await requireMayAct(writes.tx, actor, { incident: incidentId });
    if ((CLOSED_STATUSES as readonly string[]).includes(incident.status)) {
      throw new DomainError("INVALID_TRANSITION", `This incident is ${incident.status}: no unit is sent to a closed incident`);
    }
    const units = await lockUnits(writes.tx, request.unitIds);
    const missing = request.unitIds.filter((id) => !units.some((unit) => unit.id === id));
    if (missing.length > 0) throw notFound(`No unit with id ${missing.join(", ")}`);
    const kind = { training: await trainingOnly(writes.tx, incidentId), exercise_id: incident.exercise_id };
    const serving = await incidentsInWords(writes.tx, units.map((unit) => unit.incident_id));
    const doing = (unit: (typeof units)[number]) => unavailableReason(unit.state as UnitState, unit.incident_id === null ? null : (serving.get(unit.incident_id) ?? null));
    const mixed = units.flatMap((unit) => trainingMixReason(unit, kind, unit.incident_id === null ? null : doing(unit)) ?? []);
    if (mixed.length > 0) throw new DomainError("TRAINING_MIX", `${mixed.join("; ")}; nothing was sent`);
    const toSend = units.filter((unit) => unit.incident_id !== incidentId || !UNIT_STATE_RULES[unit.state as UnitState].assigned);
    const unavailable = toSend.filter((unit) => !UNIT_STATE_RULES[unit.state as UnitState].assignable);
    if (unavailable.length > 0 && !request.confirm) {
      const refused = unavailable.map((unit) => ({
        id: unit.id,
        call_sign: unit.call_sign,
        state: unit.state,
        incident_id: unit.incident_id,
        reason: doing(unit),
      }));
      throw new DomainError(
        "UNIT_UNAVAILABLE",
        `${refused.map((unit) => `${unit.call_sign} is ${unit.reason}`).join("; ")}: send with confirm: true to assign anyway`,
        { extra: { units: refused } },
      );
    }
    const left = new Set<string>();
    const opened = [];
    for (const unit of toSend) {
      const state = unit.state as UnitState;
      const previous = await closeAssignment(writes.tx, unit.id);
      if (previous && previous !== incidentId) left.add(previous);
      opened.push({ unit, assignment: await openAssignment(writes.tx, unit.id, incidentId, UNIT_STATE_RULES[state].assignable ? null : state, actor) });
    }
    // The incident follows before the units move, so that each unit's history row names the move it made (its undo reverts it).
    const followed = opened.length > 0 ? await followUnitDispatched(writes, incidentId, actor) : { status: incident.status };
    const assignments: AssignUnitsAnswer["assignments"] = [];
    for (const { unit, assignment } of opened) {
      const moved = await moveUnit(writes.tx, unit, { state: "dispatched", incidentId, position: null, incidentChangeId: followed.changeId }, actor);
      assignments.push({
        unit_id: unit.id,
        call_sign: unit.call_sign,
        incident_id: incidentId,
        assigned_at: assignment.assigned_at.toISOString(),
        confirmed_from_state: assignment.confirmed_from_state as UnitState | null,
        state_change_id: moved,
      });
    }
    for (const other of left) await followUnitCleared(writes, other, actor);
    const status = followed.status;
    if (assignments.length > 0) {
      await recordAudit(writes.tx, actor, {
        action: "incident.units_assigned",
        target: { kind: "incident", id: incidentId },
        after: { units: assignments.map((assignment) => ({ id: assignment.unit_id, call_sign: assignment.call_sign, confirmed_from_state: assignment.confirmed_from_state })) },
      });
    }
    return { incident_id: incidentId, incident_status: status, assignments };
  });
}
