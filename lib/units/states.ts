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

/** How a state reads before the incident it serves: "en route to a structure fire at 12 Main St". */
const SERVING_WORDS: Record<UnitState, string> = {
  available: "available",
  dispatched: "dispatched to",
  en_route: "en route to",
  on_scene: "on scene at",
  transporting: "transporting a patient from",
  at_hospital: "at hospital for",
  available_on_scene: "available on scene at",
  out_of_service: "out of service",
};

/**
 * What a unit is doing, in words a dispatcher reads (its state and the incident it serves, never an
 * id): why it is not sent without confirmation. `serving`: the incident in words (serving.ts).
 */
export function unavailableReason(state: UnitState, serving: string | null): string {
  if (!UNIT_STATE_RULES[state].assigned) return SERVING_WORDS[state];
  return serving ? `${SERVING_WORDS[state]} ${serving}` : state.replaceAll("_", " ");
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

/**
 * The states a dispatcher enters next for a unit, as its crew radios them (docs/units.md, "The unit
 * board"): forward along the call (en route, on scene, transporting, at hospital), clear (available)
 * or out of service from any of them. The server takes any move (units report what they do); these
 * are what the console offers, one click or key away.
 */
export const NEXT_UNIT_STATES: Record<UnitState, readonly UnitState[]> = {
  available: ["out_of_service"],
  dispatched: ["en_route", "on_scene", "available", "out_of_service"],
  en_route: ["on_scene", "available", "out_of_service"],
  on_scene: ["transporting", "available", "out_of_service"],
  transporting: ["at_hospital", "available", "out_of_service"],
  at_hospital: ["available", "out_of_service"],
  available_on_scene: ["available", "out_of_service"],
  out_of_service: ["available"],
};

/** The key that enters each state on a focused unit (the console's), and its label. */
export const UNIT_STATE_KEYS: Partial<Record<UnitState, string>> = {
  en_route: "e",
  on_scene: "o",
  transporting: "t",
  at_hospital: "h",
  available: "v",
  out_of_service: "x",
};
