/**
 * Training and real units never mix (docs/units.md, "Training and real units"): the units' side
 * of the training boundary (docs/security.md). A real incident takes only the centre's units; a
 * training incident (every call of it simulated, as lib/access/status-rule.ts judges it) only its
 * own exercise's simulated units. Whoever asks (a dispatcher, a trainer, a key) and confirmed or
 * not, so an exercise never sends, holds or pulls off a real unit, never closes a real assignment,
 * and a real incident never loses a unit to an exercise. Pure: the server refuses by it
 * (lib/units/assign.ts, 409 TRAINING_MIX), the recommendation and the unit board offer by it.
 */

/** What the rule reads of an incident: whether it is training only, and its exercise. */
export interface IncidentKind {
  training: boolean;
  exercise_id: string | null;
}

/** What the rule reads of a unit. */
export interface UnitKind {
  call_sign: string;
  exercise_id: string | null;
}

/**
 * Why the incident may not take the unit, in words (its call sign and what it is, never an id);
 * null when it may. `serving`: what the unit is doing now, in words (lib/units/states.ts
 * unavailableReason), when the refusal is to say it.
 */
export function trainingMixReason(unit: UnitKind, incident: IncidentKind, serving: string | null = null): string | null {
  if (unit.exercise_id !== null) {
    if (incident.training && incident.exercise_id === unit.exercise_id) return null;
    return incident.training
      ? `${unit.call_sign} is a simulated unit of another exercise: it serves only its own exercise's incidents`
      : `${unit.call_sign} is a simulated unit of an exercise: a real incident takes only the centre's units`;
  }
  if (!incident.training) return null;
  const doing = serving === null ? "" : `, ${serving}`;
  return `${unit.call_sign} is a real unit${doing}: a training incident takes only its own exercise's simulated units, so an exercise never takes a real unit`;
}
