import { z } from "zod";
import { DomainError } from "../domain-error";
import { type Severity, severityOrFallback } from "../vocabulary";

/**
 * The post-call event as the spec describes it, and as the real platform (ElevenLabs) sends it:
 * transcript items as `speaker/text/timestamp` or `role/message/time_in_call_secs`,
 * `call_successful` as a boolean or `success/failure/unknown`, extra fields anywhere (ignored
 * here, kept in the archived payload).
 */
export const CALL_EVENT_TYPE = "post_call_transcription";

const unixSeconds = z.number().int().min(0).max(253_402_300_799);
const optionalNumber = z.number().nullish();

// Used in object-store keys and URLs: no slashes, no dot-only names.
const conversationId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/);

const transcriptItem = z.object({
  speaker: z.string().nullish(),
  text: z.string().nullish(),
  timestamp: optionalNumber,
  role: z.string().nullish(),
  message: z.string().nullish(),
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
        start_time_unix_secs: unixSeconds.nullish(),
      })
      .nullish(),
  }),
});

export type CallEvent = z.infer<typeof callEventSchema>;

/** The webhook's 200 body: a stored call, or an event of another type archived without a record. */
export const webhookAnswerSchema = z.object({
  status: z.literal("success"),
  message: z.enum(["Webhook received", "Event ignored"]),
});

const envelopeSchema = z.object({
  type: z.string().min(1),
  event_timestamp: unixSeconds.optional().catch(undefined),
  data: z.object({ conversation_id: conversationId.optional().catch(undefined) }).optional().catch(undefined),
});

function missingFields(paths: string[]): DomainError {
  const unique = [...new Set(paths)];
  return new DomainError("MISSING_FIELDS", `Missing or invalid fields: ${unique.join(", ")}`);
}

function fieldPaths(error: z.ZodError): string[] {
  return error.issues.map((issue) => issue.path.map(String).join(".") || "body");
}

export type ParsedEvent =
  | { kind: "call"; event: CallEvent }
  | { kind: "other"; type: string; eventTimestamp?: number; conversationId?: string };

/** Sorts a parsed JSON body into a call event or another event type; 400 MISSING_FIELDS otherwise. */
export function parseEvent(body: unknown): ParsedEvent {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw missingFields(["type", "event_timestamp", "data"]);
  }
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw missingFields(fieldPaths(envelope.error));
  if (envelope.data.type !== CALL_EVENT_TYPE) {
    return {
      kind: "other",
      type: envelope.data.type,
      eventTimestamp: envelope.data.event_timestamp,
      conversationId: envelope.data.data?.conversation_id,
    };
  }
  const event = callEventSchema.safeParse(body);
  if (!event.success) throw missingFields(fieldPaths(event.error));
  return { kind: "call", event: event.data };
}

/** `value` of a data_collection_results entry (`{value, rationale}`), or a bare value. */
function collected(results: Record<string, unknown>, key: string): unknown {
  const entry = results[key];
  if (entry !== null && typeof entry === "object" && "value" in entry) return (entry as { value: unknown }).value;
  return entry;
}

function collectedText(results: Record<string, unknown>, key: string): string {
  const value = collected(results, key);
  return typeof value === "string" ? value.trim() : "";
}

function collectedCoordinate(results: Record<string, unknown>, key: string, limit: number): number | null {
  const value = collected(results, key);
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && Math.abs(number) <= limit ? number : null;
}

/** Lower-case, spaces and hyphens to `_` (decisions.md). */
export function normaliseIdentifier(value: string): string {
  return value.trim().toLowerCase().replace(/[\s-]+/g, "_");
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

/** The call record's fields, taken from a call event as decisions.md says. */
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
}

/** A loop, not Math.max(...times): a 5 MB body can hold more turns than a call's arguments may. */
function transcriptSpanSecs(event: CallEvent): number | null {
  let earliest = Infinity;
  let latest = -Infinity;
  for (const item of event.data.transcript) {
    const time = item.timestamp ?? item.time_in_call_secs;
    if (typeof time !== "number" || !Number.isFinite(time)) continue;
    earliest = Math.min(earliest, time);
    latest = Math.max(latest, time);
  }
  return latest >= earliest ? latest - earliest : null;
}

export function toWebhookCall(event: CallEvent): WebhookCall {
  const { data } = event;
  const results = data.analysis.data_collection_results;
  const latitude = collectedCoordinate(results, "latitude", 90);
  const longitude = collectedCoordinate(results, "longitude", 180);
  const successful = data.analysis.call_successful;
  const duration = data.metadata?.call_duration_secs ?? transcriptSpanSecs(event) ?? 0;
  return {
    conversationId: data.conversation_id,
    agentId: data.agent_id,
    occurredAt: new Date((data.metadata?.start_time_unix_secs ?? event.event_timestamp) * 1000),
    summary: data.analysis.transcript_summary,
    callSuccessful: successful === true || successful === "success",
    durationSecs: Math.max(0, Math.round(duration)),
    transcriptLength: data.transcript.length,
    emergencyType: normaliseIdentifier(collectedText(results, "emergency_type")) || "unknown",
    severity: normaliseSeverity(collectedText(results, "severity")),
    location: collectedText(results, "location"),
    reported: latitude !== null && longitude !== null ? { latitude, longitude } : null,
    status: normaliseIdentifier(data.status) === "failed" ? "failed" : "active",
  };
}
