import { normaliseEmergencyType, normaliseSeverity } from "../calls/handed-over";
import type { Severity } from "../vocabulary";
import { cleanText, TEXT_LIMITS } from "../calls/sanitise";

/**
 * The fields the voice agent collects about the emergency, as every platform's post-call analysis
 * carries them (ElevenLabs' data_collection_results, Vapi's structured outputs, Retell's custom
 * analysis data), read alike (docs/webhook.md, "From payload to row").
 */

/** `value` of a data_collection_results entry (`{value, rationale}`), or a bare value. */
function collected(results: Record<string, unknown>, key: string): unknown {
  const entry = results[key];
  if (entry !== null && typeof entry === "object" && "value" in entry) return (entry as { value: unknown }).value;
  return entry;
}

/** The text of a collected field, cleaned and bounded. */
function collectedText(results: Record<string, unknown>, key: string, maxLength: number): string {
  const value = collected(results, key);
  return typeof value === "string" ? cleanText(value.trim(), maxLength).trim() : "";
}

function collectedCoordinate(results: Record<string, unknown>, key: string, limit: number): number | null {
  const value = collected(results, key);
  const number = typeof value === "string" && value.trim() !== "" ? Number(value.slice(0, 64)) : value;
  return typeof number === "number" && Number.isFinite(number) && Math.abs(number) <= limit ? number : null;
}

/** What a call's analysis says of the emergency, whatever the platform calls the analysis. */
export interface CollectedFields {
  emergencyType: string;
  severity: Severity;
  location: string;
  reported: { latitude: number; longitude: number } | null;
}

/**
 * The fields the agent collected (`emergency_type`, `severity`, `location`, `latitude`,
 * `longitude`), each a bare value or `{value, rationale}`, normalised as docs/webhook.md says.
 */
export function collectedFields(results: Record<string, unknown>): CollectedFields {
  const latitude = collectedCoordinate(results, "latitude", 90);
  const longitude = collectedCoordinate(results, "longitude", 180);
  const rawEmergencyType = collected(results, "emergency_type");
  const rawSeverity = collected(results, "severity");
  return {
    emergencyType: typeof rawEmergencyType === "string" ? normaliseEmergencyType(rawEmergencyType) : "unknown",
    severity: normaliseSeverity(typeof rawSeverity === "string" ? rawSeverity : ""),
    location: collectedText(results, "location", TEXT_LIMITS.location),
    reported: latitude !== null && longitude !== null ? { latitude, longitude } : null,
  };
}
