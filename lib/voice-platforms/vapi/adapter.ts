import { type TranscriptTurn, transcriptTurns } from "../../calls/handed-over";
import { collectedFields } from "../collected";
import { normaliseIdentifier, normalisePhone, TEXT_LIMITS } from "../../calls/sanitise";
import { startVapiCheck } from "./signature";
import { platformConversationId, otherEventKey, platformEventKey } from "../payload-keys";
import {
  failureReasonOf,
  type Fields,
  instantAt,
  linkAt,
  missingFields,
  notConnectedSummary,
  numberAt,
  objectAt,
  secondsIn,
  textAt,
} from "../fields";
import { WEBHOOK_MAX_BODY_BYTES } from "../limits";
import type { PlatformAdapter } from "../platform";
import { vapiControl } from "./control";
import { vapiTools } from "./tools";
import type { LiveCallEvent } from "../event";
import { lookupTable } from "../../lookup-table";

/**
 * Vapi's server messages (docs/webhook.md, "Vapi"): the body is `{"message": {...}}`; only
 * `end-of-call-report` makes a call, `status-update` and final `transcript` messages are live
 * events of the call in progress, every other type is archived and acknowledged.
 */
export const VAPI_REPORT_TYPE = "end-of-call-report";

/** Vapi's call ids (UUIDs) as they may appear in a conversation_id (`vapi:<id>`, at most 200 characters). */
const CALL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,194}$/;

/**
 * `endedReason`s of a call that never connected: the customer's line was busy or did not answer,
 * or the call could not be started or bridged. Anything else (the customer or the assistant hung
 * up, a voicemail, a pipeline error mid-call) is a call that happened.
 */
const NEVER_CONNECTED = /^customer-busy$|^customer-did-not-answer$|failed-to-connect|^call\.start\.error|^call-start-error/;

/**
 * What Vapi's messages (`artifact.messages[]`) hold besides the conversation: the assistant's
 * system prompt, and the tool calls the agent made and their results (`tool_calls`,
 * `tool_call_result`; the SDK's ToolCallMessage and ToolCallResultMessage).
 */
const NOT_SPOKEN = /^(system|tool|function)/;

/**
 * The conversation from Vapi's messages (`{role, message, time, secondsFromStart}`): only what was
 * said (the user's and the agent's, `bot`, turns; a turn without text is left out by transcriptTurns).
 */
function vapiTurns(messages: readonly unknown[]): TranscriptTurn[] {
  return transcriptTurns(
    messages.flatMap((item) => {
      const { role, message, secondsFromStart } = objectAt(item);
      return typeof role === "string" && NOT_SPOKEN.test(role) ? [] : [{ role, message, time_in_call_secs: secondsFromStart }];
    }),
  );
}

/**
 * Vapi's structured outputs (`artifact.structuredOutputs`, keyed by the output's id, each
 * `{name, result}`) as the fields the agent collected: an object result gives its properties, a
 * bare result (an output whose schema is a string or a number) is the field its output's name says
 * (`Emergency type` is `emergency_type`). Spread, not assigned, so a `__proto__` key is just a key.
 */
function structuredOutputFields(outputs: Fields): Fields {
  let fields: Fields = {};
  for (const output of Object.values(outputs)) {
    const { name, result } = objectAt(output);
    if (result !== null && typeof result === "object" && !Array.isArray(result)) fields = { ...fields, ...(result as Fields) };
    else if (typeof name === "string" && result !== undefined) fields = { ...fields, [normaliseIdentifier(name)]: result };
  }
  return fields;
}

/** `status-update` statuses that are live events: the call started (`in-progress`) or ended. */
const LIVE_STATUSES: Readonly<Record<string, boolean>> = lookupTable({ "in-progress": false, ended: true });

/**
 * A live event among Vapi's server messages (docs/webhook.md, "Live events"), or null: a
 * `status-update` `in-progress` or `ended`, or a final `transcript` (the type may be
 * `transcript[transcriptType='final']` when the assistant asks for finals only), one more turn,
 * timed from the call's `startedAt` by the message's `timestamp` (Unix ms) when both are there.
 * Partial transcripts and other statuses are archived and acknowledged, as before.
 */
function vapiLiveEvent(type: string, message: Fields, call: Fields, conversationId: string): LiveCallEvent | null {
  let ended = false;
  let transcript: LiveCallEvent["transcript"] = null;
  if (type === "status-update") {
    const status = typeof message.status === "string" ? LIVE_STATUSES[message.status] : undefined;
    if (status === undefined) return null;
    ended = status;
  } else if (type === "transcript" || type.startsWith("transcript[")) {
    const final = message.transcriptType === "final" || (message.transcriptType === undefined && type.includes("final"));
    if (!final) return null;
    const startedAt = instantAt(call.startedAt);
    const sentAt = instantAt(message.timestamp);
    const time = startedAt && sentAt && sentAt >= startedAt ? (sentAt.getTime() - startedAt.getTime()) / 1000 : undefined;
    const turns = transcriptTurns([{ role: message.role, message: message.transcript, time_in_call_secs: time }]);
    if (turns.length === 0) return null;
    transcript = { turns, whole: false };
  } else {
    return null;
  }
  return {
    conversationId,
    platform: "vapi",
    agentId: textAt(call.assistantId ?? objectAt(message.assistant).id, TEXT_LIMITS.agentId),
    callerPhone: normalisePhone(objectAt(call.customer).number) ?? normalisePhone(objectAt(message.customer).number),
    ended,
    transcript,
    controlUrl: vapiControlUrl(call),
  };
}

/** The call's live control URL (`call.monitor.controlUrl`), sent with every server message: ./control.ts calls it. */
export function vapiControlUrl(call: Fields): string | undefined {
  const url = objectAt(call.monitor).controlUrl;
  return typeof url === "string" ? url : undefined;
}



const successful = (value: unknown) =>
  value === true || (typeof value === "string" && ["true", "pass", "passed", "success", "successful"].includes(value.trim().toLowerCase()));

/** POST /api/voiceagent-webhook/vapi (docs/webhook.md, "Vapi"); its credential in ./signature.ts. */
export const vapi: PlatformAdapter = {
  platform: "vapi",
  maxBodyBytes: WEBHOOK_MAX_BODY_BYTES,
  startCheck: startVapiCheck,
  read(body, rawBody) {
    const message = objectAt(objectAt(body).message);
    const type = message.type;
    if (typeof type !== "string" || type === "") throw missingFields(["message.type"]);
    const sentAt = instantAt(message.timestamp);
    const call = objectAt(message.call);
    if (type !== VAPI_REPORT_TYPE && typeof call.id === "string" && CALL_ID.test(call.id)) {
      const conversationId = platformConversationId("vapi", call.id);
      const live = vapiLiveEvent(type, message, call, conversationId);
      // Beside the call's payloads, named by the body's hash: two turns in one second are two objects.
      if (live) return { event: { kind: "live", call: live }, payloadKey: platformEventKey(conversationId, type, null, rawBody) };
    }
    if (type !== VAPI_REPORT_TYPE) {
      const seconds = sentAt && Math.floor(sentAt.getTime() / 1000);
      return { event: { kind: "other", type: `vapi ${type}` }, payloadKey: otherEventKey(`vapi_${type}`, rawBody, seconds ?? undefined) };
    }
    if (typeof call.id !== "string" || !CALL_ID.test(call.id)) throw missingFields(["message.call.id"]);
    const conversationId = platformConversationId("vapi", call.id);
    const analysis = objectAt(message.analysis ?? call.analysis);
    const artifact = objectAt(message.artifact);
    const startedAt = instantAt(message.startedAt ?? call.startedAt);
    const endedAt = instantAt(message.endedAt ?? call.endedAt);
    const span = startedAt && endedAt && endedAt >= startedAt ? (endedAt.getTime() - startedAt.getTime()) / 1000 : null;
    const messages = [artifact.messages, message.messages].find(Array.isArray) ?? [];
    const transcript = vapiTurns(messages);
    const recording = objectAt(artifact.recording);
    // The stable links first (mono, then stereo); the presigned ones expire, so they stand in only when refused or absent.
    const link = linkAt(
      artifact.recordingUrl,
      objectAt(recording.mono).combinedUrl,
      message.recordingUrl,
      artifact.stereoRecordingUrl,
      recording.stereoUrl,
      message.stereoRecordingUrl,
    );
    const presigned = linkAt(artifact.presignedMonoUrl, artifact.presignedStereoUrl);
    const endedReason = typeof message.endedReason === "string" ? message.endedReason : typeof call.endedReason === "string" ? call.endedReason : "";
    const failed = NEVER_CONNECTED.test(endedReason);
    const summary = textAt(analysis.summary ?? message.summary, TEXT_LIMITS.summary);
    const eventAt = sentAt ?? endedAt ?? startedAt;
    return {
      event: {
        kind: "call",
        call: {
          conversationId,
          agentId: textAt(call.assistantId ?? objectAt(message.assistant).id, TEXT_LIMITS.agentId),
          occurredAt: startedAt ?? endedAt ?? sentAt ?? new Date(),
          summary: summary || (failed ? notConnectedSummary(endedReason) : ""),
          callSuccessful: !failed && successful(analysis.successEvaluation),
          durationSecs:
            secondsIn(numberAt(message.durationSeconds)) ?? secondsIn(numberAt(message.durationMs), 0.001) ?? secondsIn(span) ?? 0,
          transcriptLength: transcript.length,
          transcript,
          // The analysis plan's structured data, and (Vapi's recommended successor) the structured outputs where it says nothing.
          ...collectedFields({ ...structuredOutputFields(objectAt(artifact.structuredOutputs)), ...objectAt(analysis.structuredData) }),
          // As ElevenLabs' failed calls: nobody spoke, so nothing to triage first.
          ...(failed ? { severity: "moderate" as const } : {}),
          status: failed ? "failed" : "active",
          callerPhone: normalisePhone(objectAt(call.customer).number) ?? normalisePhone(objectAt(message.customer).number),
          failureReason: failed ? failureReasonOf(endedReason) : null,
          platform: "vapi",
          recordingUrl: link ?? presigned,
          recordingFallbackUrl: link === null ? null : presigned,
          hasAnalysis: true,
        },
      },
      payloadKey: platformEventKey(conversationId, type, eventAt && Math.floor(eventAt.getTime() / 1000), rawBody),
    };
  },
  tools: vapiTools,
  control: vapiControl,
};
