/** The shape of a disaster scenario: pure data, shared by the simulator, the API and the dashboard. */

export const SEVERITIES = ["critical", "high", "moderate"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Every emergency kind the scenarios produce: the spec's 14 plus the 3 named in decisions.md. */
export const EMERGENCY_TYPES = [
  "structure_fire",
  "evacuation_assistance",
  "trapped_person",
  "medical_emergency",
  "shelter_information",
  "flooding",
  "wind_damage",
  "power_outage",
  "evacuation_needed",
  "building_collapse",
  "gas_leak",
  "debris_injury",
  "building_damage",
  "vehicle_accident",
  "power_lines_down",
  "shelter_needed",
  "medical_injuries",
] as const;
export type EmergencyType = (typeof EMERGENCY_TYPES)[number];

export interface LatLon {
  lat: number;
  lon: number;
}

export interface Area {
  name: string;
  /** Calls are placed within ±0.02° of this point on each axis. */
  center: LatLon;
  /** Real streets of the area (at least 8). */
  streets: readonly string[];
}

export interface EmergencyKind {
  type: EmergencyType;
  /** Relative frequency of this kind within the scenario. */
  weight: number;
  /** Relative weights of each severity for this kind (a trapped person is mostly critical...). */
  severity: Readonly<Record<Severity, number>>;
  /** Short phrases (at most 80 characters) that read well after "Caller reported ...". */
  descriptions: readonly string[];
}

export interface Scenario {
  id: string;
  name: string;
  areas: readonly Area[];
  emergencies: readonly EmergencyKind[];
  /** Area codes of caller phone numbers. */
  phoneAreaCodes: readonly string[];
}
