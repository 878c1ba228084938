import { type HandedOverCall, normaliseFailureReason, transcriptTurns } from "../../calls/handed-over";
import { AUDIO_EVENT_TYPE, type CallEvent, type FailureEvent, parseEvent, type ParsedEvent } from "./payload";
import { cleanText, integerInColumn, normaliseIdentifier, normalisePhone, TEXT_LIMITS } from "../../calls/sanitise";
import { signatureHeaderOf, startSignatureCheck } from "./signature";
import type { IntakeEvent, SpooledRecording } from "../event";
import { callPayloadKey, otherEventKey } from "../payload-keys";
import { WEBHOOK_MAX_AUDIO_BODY_BYTES } from "../limits";
import { collectedFields } from "../collected";
import type { PlatformAdapter } from "../platform";
import { elevenLabsControl } from "./control";
import { elevenLabsTools } from "./tools";

/** An ElevenLabs (or documented-form) event as intake records it. */
export function toIntakeEvent(parsed: ParsedEvent): IntakeEvent {
  switch (parsed.kind) {
    case "call":
      return { kind: "call", call: elevenLabsCall(parsed.event) };
    case "failure":
      return { kind: "failure", call: elevenLabsFailedCall(parsed.event) };
    case "audio":
      return { kind: "audio", recording: { conversationId: parsed.event.data.conversation_id, base64Audio: parsed.event.data.full_audio } };
    case "other":
      return { kind: "other", type: parsed.type };
  }
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
function unixTime(value: number | null | undefined): Date | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 253_402_300_799
    ? new Date(Math.floor(value) * 1000)
    : null;
}

/** An ElevenLabs (or documented-form) call event's call. */
export function elevenLabsCall(event: CallEvent): HandedOverCall {
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
export function elevenLabsFailedCall(event: FailureEvent): HandedOverCall {
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

/** The key an event's raw payload is archived under. */
function payloadKeyOf(parsed: ParsedEvent, rawBody: Buffer): string {
  if (parsed.kind === "call" || parsed.kind === "failure") {
    return callPayloadKey(parsed.event.data.conversation_id, parsed.event.event_timestamp);
  }
  if (parsed.kind === "audio") {
    return otherEventKey(parsed.event.type, rawBody, parsed.event.event_timestamp, parsed.event.data.conversation_id);
  }
  return otherEventKey(parsed.type, rawBody, parsed.eventTimestamp, parsed.conversationId);
}

/**
 * POST /api/voiceagent-webhook: ElevenLabs' post-call webhooks and the documented form
 * (docs/webhook.md): `voiceagent-signature` / `ElevenLabs-Signature`, keyed by
 * VOICEAGENT_WEBHOOK_SECRET; a recording may be up to 64 MB (spooled, lib/request-body/read.ts).
 */
/** The skeleton of a spooled body as a post_call_audio event whose audio was the long string, or null. */
function readSpooledRecording(skeleton: Buffer, marker: string): SpooledRecording | null {
  let event: unknown;
  try {
    event = JSON.parse(skeleton.toString("utf8"));
  } catch {
    return null;
  }
  const { type, data } = (event ?? {}) as { type?: unknown; data?: { full_audio?: unknown } };
  if (type !== AUDIO_EVENT_TYPE || data?.full_audio !== marker) return null;
  const parsed = parseEvent(event);
  if (parsed.kind !== "audio") return null;
  const { conversation_id: conversationId } = parsed.event.data;
  return { conversationId, payloadKey: otherEventKey(parsed.event.type, skeleton, parsed.event.event_timestamp, conversationId) };
}

export const elevenLabs: PlatformAdapter = {
  platform: "elevenlabs",
  maxBodyBytes: WEBHOOK_MAX_AUDIO_BODY_BYTES,
  startCheck: (headers, config, nowMs = Date.now()) =>
    startSignatureCheck(
      signatureHeaderOf(headers),
      { secret: config.VOICEAGENT_WEBHOOK_SECRET, required: config.VOICEAGENT_REQUIRE_SIGNATURE },
      Math.floor(nowMs / 1000),
    ),
  read(body, rawBody) {
    const parsed = parseEvent(body);
    return { event: toIntakeEvent(parsed), payloadKey: payloadKeyOf(parsed, rawBody) };
  },
  tools: elevenLabsTools,
  control: elevenLabsControl,
  readSpooledRecording,
};
