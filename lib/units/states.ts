/**
 * A unit's states, in one table (docs/units.md, "States"): pure data, shared by the server and
 * the dashboard. The vocabulary follows the states dispatch systems name (Resgrid's
 * UnitStateTypes: Available, Committed, Responding, En route, On scene, Returning...), narrowed to
 * what a centre reports intervals over (NFPA 1710: turnout is dispatched to en route, travel is
 * en route to on scene).
 */
export const UNIT_STATES = [
  "available",
  "dispatched",
  "en_route",
  "on_scene",
  "transporting",
  "at_hospital",
  "available_on_scene",
  "out_of_service",
] as const;
export type UnitState = (typeof UNIT_STATES)[number];

interface StateRule {
  /** What the state means, for docs and the dashboard. */
  meaning: string;
  /** The unit serves an incident in this state: it needs an open assignment. */
  assigned: boolean;
  /** A dispatcher may send the unit without confirming. */
  assignable: boolean;
  /**
   * After this long in the state the unit board's timer turns to a warning (null: never): a unit
   * that has not moved on when it should have (docs/units.md, "The unit board").
   */
  warnAfterSeconds: number | null;
}

export const UNIT_STATE_RULES: Record<UnitState, StateRule> = {
  available: { meaning: "In service, free, at the station or on patrol", assigned: false, assignable: true, warnAfterSeconds: null },
  dispatched: { meaning: "Sent to an incident, not yet moving", assigned: true, assignable: false, warnAfterSeconds: 90 },
  en_route: { meaning: "Moving to the incident", assigned: true, assignable: false, warnAfterSeconds: 480 },
  on_scene: { meaning: "Arrived at the incident", assigned: true, assignable: false, warnAfterSeconds: 3_600 },
  transporting: { meaning: "Carrying a patient to hospital", assigned: true, assignable: false, warnAfterSeconds: 1_800 },
  at_hospital: { meaning: "At hospital, handing over", assigned: true, assignable: false, warnAfterSeconds: 1_800 },
  available_on_scene: { meaning: "Still at the incident but free to be sent elsewhere", assigned: true, assignable: true, warnAfterSeconds: 1_800 },
  out_of_service: { meaning: "Not in service (maintenance, crew off, administratively down)", assigned: false, assignable: false, warnAfterSeconds: null },
};

/** A move to a state that needs no assignment clears the unit: its assignment closes. */
export const clears = (state: UnitState): boolean => !UNIT_STATE_RULES[state].assigned;

/** Why a unit in this state is not sent without confirmation. */
export function unavailableReason(state: UnitState, incidentId: string | null): string {
  if (state === "out_of_service") return "out of service";
  return incidentId ? `${state.replaceAll("_", " ")} on incident ${incidentId}` : state.replaceAll("_", " ");
}

export const UNIT_TYPES = ["engine", "ladder", "rescue", "ambulance", "patrol", "hazmat", "command", "other"] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

/** Average road speed per type, km/h, for an approximate travel time (UNIT_SPEEDS_KMH overrides). */
export const DEFAULT_SPEEDS_KMH: Record<UnitType, number> = {
  engine: 50, ladder: 45, rescue: 50, ambulance: 60, patrol: 70, hazmat: 45, command: 70, other: 50,
};

/**
 * Units held to NFPA 1710's EMS turnout (UNIT_TURNOUT_EMS_SECONDS); every other type is held to
 * the fire turnout (UNIT_TURNOUT_FIRE_SECONDS), patrol and command too: NFPA sets none for them.
 */
export const EMS_UNIT_TYPES = ["ambulance"] as const satisfies readonly UnitType[];

/** Whether a unit of this type is held to the EMS turnout (EMS_UNIT_TYPES). */
export const isEmsUnitType = (type: string): boolean => (EMS_UNIT_TYPES as readonly string[]).includes(type);
