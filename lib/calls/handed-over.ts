import { EMERGENCY_TYPES, type Platform, type Severity, severityOrFallback } from "../vocabulary";
import { cleanText, normaliseIdentifier, TEXT_LIMITS } from "./sanitise";
import { lookupTable } from "../lookup-table";

/**
 * The call a platform hands over, whichever platform (lib/voice-platforms) or live tool
 * (lib/on-the-line) it comes from: its record, its transcript's turns, and the rules that put the
 * agent's words for severity, emergency type and failure on Mayday's scales.
 */

/**
 * The call a voice platform hands over after the call (an exercise's live call too, at its end):
 * the record's fields as docs/webhook.md says each platform's event gives them, before it is
 * placed and stored.
 */
export interface HandedOverCall {
  conversationId: string;
  agentId: string;
  occurredAt: Date;
  summary: string;
  callSuccessful: boolean;
  durationSecs: number;
  transcriptLength: number;
  emergencyType: string;
  severity: Severity;
  location: string;
  /** Both coordinates when the agent collected them, else null. */
  reported: { latitude: number; longitude: number } | null;
  status: "active" | "failed";
  /** E.164 when it could be normalised; null for a web call. */
  callerPhone: string | null;
  failureReason: FailureReason | null;
  /** Where the call came from (lib/voice-platforms). */
  platform: Platform;
  /** The platform's link to the call's audio, when it sends one. */
  recordingUrl: string | null;
  /**
   * Another link to the same audio, fetched when `recordingUrl` is refused (401/403): Vapi's
   * presigned link, which expires, so it is only queued for the archiver, not stored with the call.
   */
  recordingFallbackUrl: string | null;
  /**
   * false: the event carries no analysis (Retell's call_ended), so summary, type, severity,
   * location and coordinates are placeholders that never overwrite a stored analysis.
   */
  hasAnalysis: boolean;
  /** The conversation turn by turn (empty for a call that never connected). */
  transcript: TranscriptTurn[];
}

/** One turn of a conversation as the call detail shows it and call_transcripts stores it. */
export interface TranscriptTurn {
  /** `agent` for the voice agent on every platform; anyone else as the platform named them (`user`, `caller`...); `unknown` when it did not. */
  speaker: string;
  /** Seconds since the conversation's first turn; null when the turn has no time. */
  time_in_call_secs: number | null;
  text: string;
}

/** A turn's text is bounded like a summary; a speaker's name like an identifier. */
const TURN_TEXT_LIMIT = TEXT_LIMITS.summary;
const SPEAKER_LIMIT = 64;

/**
 * The names the platforms give their voice agent (ElevenLabs and Retell `agent`, Vapi `bot` and, in
 * its OpenAI-formatted messages, `assistant`; `AI` in Vapi's transcript text): each turn of theirs is
 * stored as `agent`, so every platform's agent reads (and is styled) the same.
 */
const AGENT_SPEAKERS: ReadonlySet<string> = new Set(["agent", "assistant", "bot", "ai"]);

/** A speaker as stored: the agent as `agent`, anyone else as the platform named them; `unknown` when it did not. */
function speakerOf(who: string): string {
  const speaker = normaliseIdentifier(cleanText(who, SPEAKER_LIMIT));
  return AGENT_SPEAKERS.has(speaker) ? "agent" : speaker || "unknown";
}

/**
 * The transcript's turns in the order spoken: `role/message/time_in_call_secs` (ElevenLabs; the
 * time is already relative) or `speaker/text/timestamp` (documented form; Unix times, made
 * relative to the earliest turn). Items that are not objects, or whose text is missing or blank (a
 * tool call's turn), are left out; the agent's turns are the `agent`'s whatever the platform calls it.
 */
export function transcriptTurns(items: readonly unknown[]): TranscriptTurn[] {
  const raw = items.flatMap((item) => {
    if (item === null || typeof item !== "object") return [];
    const { speaker, role, text, message, timestamp, time_in_call_secs: timeInCall } = item as Record<string, unknown>;
    const words = typeof message === "string" ? message : typeof text === "string" ? text : null;
    if (words === null || words.trim() === "") return [];
    const who = typeof role === "string" ? role : typeof speaker === "string" ? speaker : "";
    const relative = typeof timeInCall === "number" && Number.isFinite(timeInCall) ? timeInCall : null;
    const absolute = relative === null && typeof timestamp === "number" && Number.isFinite(timestamp) ? timestamp : null;
    return [{ who, words, relative, absolute }];
  });
  let earliest = Infinity;
  for (const { absolute } of raw) if (absolute !== null) earliest = Math.min(earliest, absolute);
  return raw.map(({ who, words, relative, absolute }) => ({
    speaker: speakerOf(who),
    time_in_call_secs: relative ?? (absolute === null ? null : absolute - earliest),
    text: cleanText(words, TURN_TEXT_LIMIT),
  }));
}

const severitySynonyms: Record<string, Severity> = lookupTable({
  life_threatening: "critical",
  immediate: "critical",
  severe: "high",
  serious: "high",
  urgent: "high",
  medium: "moderate",
  low: "moderate",
  minor: "moderate",
});

/**
 * The listing and the map only know three severities. A synonym maps onto the scale; a value the
 * agent could not determine (or one outside the scale) becomes SEVERITY_FALLBACK. The raw value
 * stays in the archived payload.
 */
export function normaliseSeverity(raw: string): Severity {
  const value = normaliseIdentifier(raw);
  return Object.hasOwn(severitySynonyms, value) ? severitySynonyms[value] : severityOrFallback(value);
}

/**
 * A known emergency type as itself; any other value as its identifier reduced to letters,
 * digits and `_`, at most 64 characters (the platform adds types without notice, and a
 * dispatcher is better served by `chemical_spill` than by `unknown`); nothing left: `unknown`.
 */
export function normaliseEmergencyType(raw: string): string {
  const value = normaliseIdentifier(raw);
  if ((EMERGENCY_TYPES as readonly string[]).includes(value)) return value;
  const reduced = value
    .replace(/[^\p{L}\p{N}_]/gu, "")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
  return cleanText(reduced, TEXT_LIMITS.emergencyType) || "unknown";
}

export const FAILURE_REASONS = ["busy", "no-answer", "unknown"] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** `busy`, `no-answer` (also written `no_answer`, `No Answer`), anything else `unknown`. */
export function normaliseFailureReason(raw: string | null | undefined): FailureReason {
  const value = normaliseIdentifier(raw ?? "").replaceAll("_", "-");
  return (FAILURE_REASONS as readonly string[]).includes(value) ? (value as FailureReason) : "unknown";
}
