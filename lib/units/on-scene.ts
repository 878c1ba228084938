import type { Actor } from "../access/actor";
import { trainingOnly } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import type { CallWrites } from "../calls/write/write-calls";
import { DomainError, notFound } from "../domain-error";
import { lockIncident } from "../incidents/lock";
import { followUnitCleared, followUnitDispatched } from "./follow";
import { incidentsInWords } from "./serving";
import { UNIT_STATE_RULES, type UnitState, unavailableReason } from "./states";
import { trainingMixReason } from "./training";
import { closeAssignment, lockUnits, moveUnit, openAssignment } from "./write";

/**
 * A unit that reported the incident itself (docs/units.md, "Unit-initiated incidents"): a crew that
 * came upon an accident, an engine that radios a fire it passes. In the caller's transaction (the
 * call that opened the incident just written): the unit must be free to take it (assignable, and
 * training and real never mix: lib/units/training.ts), its assignment on scene elsewhere (available
 * on scene) closes, it is assigned marked `unit_initiated` and moved straight to on scene, and the
 * incident follows its unit (dispatched). The units' report counts such an assignment's turnout as
 * zero and leaves its travel out (lib/reports/unit-intervals.ts): the unit never travelled to it.
 */
export async function assignReportingUnit(writes: CallWrites, unitId: string, incidentId: string, actor: Actor): Promise<void> {
  const incident = await lockIncident(writes, incidentId);
  const [unit] = await lockUnits(writes.tx, [unitId]);
  if (!unit) throw notFound(`No unit with id ${unitId}`);
  const state = unit.state as UnitState;
  const serving = unit.incident_id === null ? null : ((await incidentsInWords(writes.tx, [unit.incident_id])).get(unit.incident_id) ?? null);
  const mixed = trainingMixReason(unit, { training: await trainingOnly(writes.tx, incidentId), exercise_id: incident.exercise_id }, serving);
  if (mixed !== null) throw new DomainError("TRAINING_MIX", `${mixed}; nothing was stored`);
  if (!UNIT_STATE_RULES[state].assignable) {
    throw new DomainError("UNIT_UNAVAILABLE", `${unit.call_sign} is ${unavailableReason(state, serving)}: clear it first, or take the call without the unit`, {
      extra: { units: [{ id: unit.id, call_sign: unit.call_sign, state, incident_id: unit.incident_id, reason: unavailableReason(state, serving) }] },
    });
  }
  const previous = await closeAssignment(writes.tx, unit.id);
  await openAssignment(writes.tx, unit.id, incidentId, null, actor, { unitInitiated: true });
  await moveUnit(writes.tx, unit, { state: "on_scene", incidentId, position: null }, actor);
  if (previous !== undefined) await followUnitCleared(writes, previous, actor);
  await followUnitDispatched(writes, incidentId, actor);
  await recordAudit(writes.tx, actor, {
    action: "incident.units_assigned",
    target: { kind: "incident", id: incidentId },
    after: { units: [{ id: unit.id, call_sign: unit.call_sign, confirmed_from_state: null, unit_initiated: true }] },
  });
}
