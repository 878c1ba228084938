import { lookupTable } from "./lookup-table";
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

/**
 * The emergency types of docs/interface.md: the scenarios' seventeen kinds, and three a voice agent
 * names that no scenario makes (a hazardous-materials release, a call for the police, a natural
 * disaster at large).
 */
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
  "hazardous_materials",
  "law_enforcement",
  "natural_disaster",
] as const;
export type EmergencyType = (typeof EMERGENCY_TYPES)[number];

/**
 * Words a voice agent says for an emergency type, each as Mayday's type (docs/interface.md,
 * "Emergency types"): the words of the live tool's earlier description and of agents' data
 * collection. A fire of no stated kind is a structure fire, the assignment a centre sends until it
 * knows better. `other` is no type: the agent did not say.
 */
export const EMERGENCY_TYPE_SYNONYMS: Readonly<Record<string, EmergencyType | "unknown">> = lookupTable({
  fire: "structure_fire",
  house_fire: "structure_fire",
  building_fire: "structure_fire",
  medical: "medical_emergency",
  ems: "medical_emergency",
  injury: "medical_injuries",
  injuries: "medical_injuries",
  traffic_accident: "vehicle_accident",
  car_accident: "vehicle_accident",
  crash: "vehicle_accident",
  hazmat: "hazardous_materials",
  police: "law_enforcement",
  crime: "law_enforcement",
  natural_disaster: "natural_disaster",
  flood: "flooding",
  gas: "gas_leak",
  collapse: "building_collapse",
  other: "unknown",
});

/** Mayday's type for an identifier-shaped word (lower case, `_` between words), or the word itself. */
export const emergencyTypeOf = (word: string): string => (Object.hasOwn(EMERGENCY_TYPE_SYNONYMS, word) ? EMERGENCY_TYPE_SYNONYMS[word] : word);

/**
 * The voice-agent platforms whose post-call events Mayday takes (docs/webhook.md), each with its
 * name as the dashboard shows it; `elevenlabs` for every earlier call. A platform's registration
 * (docs/webhook.md, "A fourth platform") starts here.
 */
export const PLATFORM_LABELS = { elevenlabs: "ElevenLabs", vapi: "Vapi", retell: "Retell" } as const;
export type Platform = keyof typeof PLATFORM_LABELS;
export const PLATFORMS = Object.keys(PLATFORM_LABELS) as [Platform, ...Platform[]];

/** Where a stored call came from: a voice-agent platform, or `call_taker`, a person who took it (POST /api/calls, lib/call-taking). */
export const CALL_TAKER = "call_taker";
export const CALL_SOURCES = [...PLATFORMS, CALL_TAKER] as const;
export type CallSource = (typeof CALL_SOURCES)[number];

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
