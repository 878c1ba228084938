/** The shape of a disaster scenario: pure data, shared by the simulator, the API and the dashboard. */

import type { EmergencyType, Severity } from "../vocabulary";

export { EMERGENCY_TYPES, type EmergencyType, SEVERITIES, type Severity } from "../vocabulary";

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
