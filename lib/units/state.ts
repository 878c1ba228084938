import type { Actor } from "../access/actor";
import { type CallWrites, writeCalls } from "../calls/write/write-calls";
import { DomainError, notFound } from "../domain-error";
import { followUnitCleared } from "./follow";
import { getUnit } from "./read";
import type { Unit, UnitStateRequest } from "./schema";
import { clears, UNIT_STATE_RULES } from "./states";
import type { UnitRow } from "./to-unit";
import { closeAssignment, lockUnits, moveUnit } from "./write";

/**
 * POST /api/units/{id}/state: a unit reports its state (docs/units.md, "States"). A state of an
 * assignment needs one (UNIT_NOT_ASSIGNED otherwise); a state that clears (available, out of
 * service) closes the unit's assignment, and its incident follows (lib/units/follow.ts), closing
 * with the request's disposition when it was its last unit. Setting
 * the current state again records only a position given with it.
 */
export async function changeUnitState(id: string, request: UnitStateRequest, actor: Actor): Promise<Unit> {
  await writeCalls(async (writes) => {
    await writes.lockChangeFeed();
    const [unit] = await lockUnits(writes.tx, [id]);
    if (!unit) throw notFound(`No unit with id ${id}`);
    await applyUnitState(writes, unit, request, actor);
  });
  return getUnit(id);
}

/** The move itself, in the caller's transaction (the feed's lock taken, the unit locked). */
export async function applyUnitState(writes: CallWrites, unit: UnitRow, request: UnitStateRequest, actor: Actor): Promise<void> {
  if (unit.state === request.state && request.position === null) return;
  if (UNIT_STATE_RULES[request.state].assigned && unit.incident_id === null) {
    throw new DomainError("UNIT_NOT_ASSIGNED", `${unit.call_sign} serves no incident: it is ${request.state.replaceAll("_", " ")} only once assigned`, {
      extra: { state: unit.state },
    });
  }
  const cleared = clears(request.state);
  const served = cleared ? await closeAssignment(writes.tx, unit.id) : undefined;
  // The incident follows first, so that the unit's history row names the move it made (its undo reverts it).
  const incidentChangeId = served ? await followUnitCleared(writes, served, actor, request.disposition ?? null) : undefined;
  await moveUnit(writes.tx, unit, { state: request.state, incidentId: cleared ? null : unit.incident_id, position: request.position, incidentChangeId }, actor);
}
