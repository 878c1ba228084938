import { z } from "zod";
import { DomainError } from "../domain-error";
import { EMERGENCY_TYPES, type Platform, type Severity, severityOrFallback } from "../vocabulary";
import { cleanText, integerInColumn, normaliseIdentifier, normalisePhone, TEXT_LIMITS } from "./sanitise";

/**
 * The post-call event in its documented form (docs/interface.md), and as the real platform (ElevenLabs) sends it:
 * transcript items as `speaker/text/timestamp` or `role/message/time_in_call_secs`,
 * `call_successful` as a boolean or `success/failure/unknown`, extra fields anywhere (ignored
 * here, kept in the archived payload).
 */
export const CALL_EVENT_TYPE = "post_call_transcription";
export const AUDIO_EVENT_TYPE = "post_call_audio";
export const FAILURE_EVENT_TYPE = "call_initiation_failure";

const unixSeconds = z.number().int().min(0).max(253_402_300_799);
// Optional numbers the record can do without: a wrong type is no value (docs/webhook.md).
const optionalNumber = z.number().nullish().catch(null);
const optionalText = z.string().nullish().catch(null);

// Used in object-store keys and URLs: no slashes, no dot-only names.
const conversationId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/);

const transcriptItem = z.object({
  speaker: optionalText,
  text: optionalText,
  timestamp: optionalNumber,
  role: optionalText,
  message: optionalText,
  time_in_call_secs: optionalNumber,
});

export const callEventSchema = z.object({
  type: z.literal(CALL_EVENT_TYPE),
  event_timestamp: unixSeconds,
  data: z.object({
    conversation_id: conversationId,
    agent_id: z.string().min(1),
    status: z.string(),
    transcript: z.array(transcriptItem),
    analysis: z.object({
      transcript_summary: z.string(),
      call_successful: z.union([z.boolean(), z.enum(["success", "failure", "unknown"])]),
      data_collection_results: z.record(z.string(), z.unknown()),
    }),
    metadata: z
      .object({
        call_duration_secs: optionalNumber,
        start_time_unix_secs: optionalNumber,
        phone_call: z
          .object({ external_number: optionalText })
          .nullish()
          .catch(null)
          .meta({ description: "Phone calls only; `external_number` is the caller" }),
      })
      .nullish(),
    conversation_initiation_client_data: z
      .object({
        dynamic_variables: z.object({ system__caller_id: optionalText }).nullish().catch(null),
      })
      .nullish()
      .catch(null),
  }),
});

/** The recording of a conversation: the whole call as base64 MP3. */
export const audioEventSchema = z.object({
  type: z.literal(AUDIO_EVENT_TYPE),
  event_timestamp: unixSeconds,
  data: z.object({
    conversation_id: conversationId,
    agent_id: optionalText,
    full_audio: z.string().meta({ description: "The whole call, base64-encoded MP3" }),
  }),
});

/** An outbound call that never connected. */
export const failureEventSchema = z.object({
  type: z.literal(FAILURE_EVENT_TYPE),
  event_timestamp: unixSeconds,
  data: z.object({
    conversation_id: conversationId,
    agent_id: optionalText,
    failure_reason: optionalText.meta({ description: "busy, no-answer or unknown" }),
    metadata: z
      .object({
        type: optionalText.meta({ description: "twilio or sip" }),
        body: z.record(z.string(), z.unknown()).nullish().catch(null).meta({
          description: "The telephony provider's own fields",
        }),
      })
      .nullish()
      .catch(null),
  }),
});

export type AudioEvent = z.infer<typeof audioEventSchema>;
export type FailureEvent = z.infer<typeof failureEventSchema>;

/**
 * The call event as the intake parses it: transcript items are only counted and timed, so they
 * are not validated one by one (a 5 MB body holds 100,000 turns; zod took 100-400 ms for them).
 */
const callEventIntakeSchema = callEventSchema.extend({
  data: callEventSchema.shape.data.extend({ transcript: z.array(z.unknown()) }),
});

export type CallEvent = z.infer<typeof callEventIntakeSchema>;

/** The webhook's 200 body: a stored call, or an event of another type archived without a record. */
export const webhookAnswerSchema = z.object({
  status: z.literal("success"),
  message: z.enum(["Webhook received", "Event ignored"]),
});

/** Any other event type: archived as received and acknowledged. */
export const otherEventSchema = z
  .object({
    type: z.string().min(1),
    event_timestamp: unixSeconds.optional(),
    data: z.object({ conversation_id: conversationId.optional() }).optional(),
  })
  .meta({ description: "An event type this service does not know yet" });

/** Every form the webhook takes, as documented (lib/intake reads and validates the raw body). */
export const webhookEventSchema = z
  .union([callEventSchema, audioEventSchema, failureEventSchema, otherEventSchema])
  .meta({ description: "One of the platform's post-call events; any other `type` is archived and acknowledged" });

const envelopeSchema = z.object({
  type: z.string().min(1),
  event_timestamp: unixSeconds.optional().catch(undefined),
  data: z.object({ conversation_id: conversationId.optional().catch(undefined) }).optional().catch(undefined),
});

/** 400 MISSING_FIELDS naming the fields. */
export function missingFields(paths: string[]): DomainError {
  const unique = [...new Set(paths)];
  return new DomainError("MISSING_FIELDS", `Missing or invalid fields: ${unique.join(", ")}`);
}

function fieldPaths(error: z.ZodError): string[] {
  return error.issues.map((issue) => issue.path.map(String).join(".") || "body");
}

export type ParsedEvent =
  | { kind: "call"; event: CallEvent }
  | { kind: "audio"; event: AudioEvent }
  | { kind: "failure"; event: FailureEvent }
  | { kind: "other"; type: string; eventTimestamp?: number; conversationId?: string };

const knownEvents = {
  [CALL_EVENT_TYPE]: { kind: "call", schema: callEventIntakeSchema },
  [AUDIO_EVENT_TYPE]: { kind: "audio", schema: audioEventSchema },
  [FAILURE_EVENT_TYPE]: { kind: "failure", schema: failureEventSchema },
} as const;

const isKnownType = (type: string): type is keyof typeof knownEvents => Object.hasOwn(knownEvents, type);

/** Sorts a parsed JSON body into one of the known event types, or another one; 400 MISSING_FIELDS otherwise. */
export function parseEvent(body: unknown): ParsedEvent {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw missingFields(["type", "event_timestamp", "data"]);
  }
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw missingFields(fieldPaths(envelope.error));
  const { type } = envelope.data;
  if (!isKnownType(type)) {
    return {
      kind: "other",
      type,
      eventTimestamp: envelope.data.event_timestamp,
      conversationId: envelope.data.data?.conversation_id,
    };
  }
  const { kind, schema } = knownEvents[type];
  const event = schema.safeParse(body);
  if (!event.success) throw missingFields(fieldPaths(event.error));
  return { kind, event: event.data } as ParsedEvent;
}

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

export { normaliseIdentifier };

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

const severitySynonyms: Record<string, Severity> = {
  life_threatening: "critical",
  immediate: "critical",
  severe: "high",
  serious: "high",
  urgent: "high",
  medium: "moderate",
  low: "moderate",
  minor: "moderate",
};

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

/** The call record's fields, taken from a call event as docs/webhook.md says. */
export interface WebhookCall {
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
  /** Where the call came from (lib/intake/platforms). */
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

/** A loop, not Math.max(...times): a 5 MB body can hold more turns than a call's arguments may. */
function transcriptSpanSecs(event: CallEvent): number | null {
  let earliest = Infinity;
  let latest = -Infinity;
  for (const item of event.data.transcript) {
    if (item === null || typeof item !== "object") continue;
    const { timestamp, time_in_call_secs: timeInCall } = item as { timestamp?: unknown; time_in_call_secs?: unknown };
    const time = typeof timestamp === "number" ? timestamp : timeInCall;
    if (typeof time !== "number" || !Number.isFinite(time)) continue;
    earliest = Math.min(earliest, time);
    latest = Math.max(latest, time);
  }
  return latest >= earliest ? latest - earliest : null;
}

/** A Unix time the record can hold (year 0 to 9999), else null. */
export function unixTime(value: number | null | undefined): Date | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 253_402_300_799
    ? new Date(Math.floor(value) * 1000)
    : null;
}

export function toWebhookCall(event: CallEvent): WebhookCall {
  const { data } = event;
  const successful = data.analysis.call_successful;
  const transcript = transcriptTurns(data.transcript);
  const duration =
    integerInColumn(data.metadata?.call_duration_secs) ?? integerInColumn(transcriptSpanSecs(event)) ?? 0;
  return {
    conversationId: data.conversation_id,
    agentId: cleanText(data.agent_id, TEXT_LIMITS.agentId),
    occurredAt: unixTime(data.metadata?.start_time_unix_secs) ?? new Date(event.event_timestamp * 1000),
    summary: cleanText(data.analysis.transcript_summary, TEXT_LIMITS.summary),
    callSuccessful: successful === true || successful === "success",
    durationSecs: duration,
    // The specification's count: every item of the transcript, whatever it holds (a tool call's
    // turn, whose message is null, too); the turns stored are those with text.
    transcriptLength: data.transcript.length,
    ...collectedFields(data.analysis.data_collection_results),
    status: normaliseIdentifier(data.status) === "failed" ? "failed" : "active",
    callerPhone:
      normalisePhone(data.metadata?.phone_call?.external_number) ??
      normalisePhone(data.conversation_initiation_client_data?.dynamic_variables?.system__caller_id),
    failureReason: null,
    platform: "elevenlabs",
    recordingUrl: null,
    recordingFallbackUrl: null,
    hasAnalysis: true,
    transcript,
  };
}

/** Where the telephony provider's body may name the number that was called (Twilio, SIP). */
const FAILURE_NUMBER_FIELDS = ["To", "to", "to_number", "called_number", "external_number"];

/**
 * A call that never connected: status `failed`, its reason, and the number that was called; no
 * transcript, so no type (`unknown`), severity `moderate` and an empty location.
 */
export function toFailedCall(event: FailureEvent): WebhookCall {
  const { data } = event;
  const reason = normaliseFailureReason(data.failure_reason);
  const body = data.metadata?.body ?? {};
  const number = FAILURE_NUMBER_FIELDS.map((field) => normalisePhone(body[field])).find((value) => value !== null);
  return {
    conversationId: data.conversation_id,
    agentId: cleanText(data.agent_id ?? "", TEXT_LIMITS.agentId),
    occurredAt: new Date(event.event_timestamp * 1000),
    summary: `Call could not be connected (${reason}).`,
    callSuccessful: false,
    durationSecs: 0,
    transcriptLength: 0,
    emergencyType: "unknown",
    severity: "moderate",
    location: "",
    reported: null,
    status: "failed",
    callerPhone: number ?? null,
    failureReason: reason,
    platform: "elevenlabs",
    recordingUrl: null,
    recordingFallbackUrl: null,
    hasAnalysis: true,
    transcript: [],
  };
}
