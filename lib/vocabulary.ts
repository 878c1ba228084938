/**
 * The enumerations of the interface (docs/interface.md), defined once: the
 * simulator, the webhook, the calls API and the dashboard all speak them. Pure data, safe for the
 * client bundle.
 */

export const SEVERITIES = ["critical", "high", "moderate"] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * What a severity outside the scale (or missing) counts as, on the server and on the screen alike:
 * `high`, so the call gets triaged rather than buried (docs/webhook.md).
 */
export const SEVERITY_FALLBACK: Severity = "high";

/** The value itself when it is on the scale, else SEVERITY_FALLBACK. */
export function severityOrFallback(value: string): Severity {
  return (SEVERITIES as readonly string[]).includes(value) ? (value as Severity) : SEVERITY_FALLBACK;
}

export const STATUSES = ["active", "dispatched", "enroute", "resolved", "failed"] as const;
export type CallStatus = (typeof STATUSES)[number];

/** The seventeen emergency types of docs/interface.md: the scenarios' kinds and more. */
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

/** The voice-agent platforms whose post-call events Mayday takes (docs/webhook.md); `elevenlabs` for every earlier call. */
export const PLATFORMS = ["elevenlabs", "vapi", "retell"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A simulated call, field for field the "simulated call record" of docs/interface.md: what the simulator generates and the calls' door stores. */
export interface SimulatedCall {
  call_id: string;
  timestamp: number;
  created_at: string;
  location: { latitude: string; longitude: string; address: string; area: string };
  emergency_type: string;
  severity: Severity;
  description: string;
  summary: string;
  duration_secs: number;
  caller_phone: string;
  status: "active";
  simulation: true;
  scenario: string;
  scenario_name: string;
}

/** `table_name` of a simulation (docs/interface.md). */
export const TABLE_NAME_PATTERN = /^[A-Za-z0-9_.-]{3,255}$/;

/** The table name of training exercises' calls: what `exercises=hide` leaves out (docs/exercises.md). */
export const EXERCISE_TABLE_NAME = "exercise-calls";

/** Sign-in (docs/security.md): the session cookie's name and a password's length, for the configuration, the schemas and the pages. */
export const SESSION_COOKIE = "mayday.session_token";
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
