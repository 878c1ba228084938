import { type TranscriptTurn, transcriptTurns } from "../../calls/handed-over";
import { collectedFields } from "../collected";
import { normalisePhone, TEXT_LIMITS } from "../../calls/sanitise";
import { startRetellCheck } from "./signature";
import { otherEventKey, platformConversationId, platformEventKey } from "../payload-keys";
import { failureReasonOf, type Fields, instantAt, linkAt, missingFields, notConnectedSummary, numberAt, objectAt, secondsIn, textAt } from "../fields";
import { WEBHOOK_MAX_BODY_BYTES } from "../limits";
import type { PlatformAdapter } from "../platform";
import { retellControl } from "./control";
import { retellTools } from "./tools";
import type { LiveCallEvent } from "../event";

/** Retell's events that make a call (docs/webhook.md, "Retell"); the live ones and the rest are archived and acknowledged. */
export const RETELL_CALL_EVENTS = ["call_ended", "call_analyzed"] as const;

/** Retell's live events (docs/webhook.md, "Live events"): the call started, and its transcript so far at each turn. */
export const RETELL_LIVE_EVENTS = ["call_started", "transcript_updated"] as const;

/** How far the signature's timestamp may be from our clock, either way (retell-sdk's verify uses the same). */

/** Retell's call ids as they may appear in a conversation_id (`retell:<id>`, at most 200 characters). */
const CALL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,192}$/;

/** `disconnection_reason`s of an outbound call that never connected (its `call_status` is `not_connected`). */
const NEVER_CONNECTED = /^dial_|^invalid_destination$|^telephony_provider_permission_denied$/;


/**
 * The conversation from `transcript_object` (`{role, content, words: [{start}]}`), else from the
 * `transcript` text's lines ("Agent: ...", "User: ...").
 */
function retellTurns(call: Fields): TranscriptTurn[] {
  if (Array.isArray(call.transcript_object)) {
    return transcriptTurns(
      call.transcript_object.map((item) => {
        const { role, content, words } = objectAt(item);
        const first = Array.isArray(words) ? objectAt(words[0]).start : undefined;
        return { role, message: content, time_in_call_secs: first };
      }),
    );
  }
  if (typeof call.transcript !== "string") return [];
  return transcriptTurns(
    call.transcript.split("\n").flatMap((line) => {
      const turn = /^\s*([A-Za-z][\w ]{0,30}):\s*(.*)$/.exec(line);
      return turn ? [{ role: turn[1].toLowerCase(), message: turn[2] }] : line.trim() ? [{ message: line.trim() }] : [];
    }),
  );
}

/** POST /api/voiceagent-webhook/retell (docs/webhook.md, "Retell"); its credential in ./signature.ts. */
export const retell: PlatformAdapter = {
  platform: "retell",
  maxBodyBytes: WEBHOOK_MAX_BODY_BYTES,
  startCheck: startRetellCheck,
  read(body, rawBody) {
    const root = objectAt(body);
    const { event } = root;
    if (typeof event !== "string" || event === "") throw missingFields(["event"]);
    const call = objectAt(root.call);
    if ((RETELL_LIVE_EVENTS as readonly string[]).includes(event) && typeof call.call_id === "string" && CALL_ID.test(call.call_id)) {
      const conversationId = platformConversationId("retell", call.call_id);
      const turns = event === "transcript_updated" ? retellTurns(call) : [];
      const live: LiveCallEvent = {
        conversationId,
        platform: "retell",
        agentId: textAt(call.agent_id, TEXT_LIMITS.agentId),
        callerPhone: normalisePhone(call.direction === "outbound" ? call.to_number : call.from_number),
        // transcript_updated's last update comes when the call ends.
        ended: call.call_status === "ended",
        transcript: turns.length > 0 ? { turns, whole: true } : null,
      };
      // Beside the call's payloads, named by the body's hash: each snapshot its own object, a redelivery the same.
      return { event: { kind: "live", call: live }, payloadKey: platformEventKey(conversationId, event, null, rawBody) };
    }
    if (!(RETELL_CALL_EVENTS as readonly string[]).includes(event)) {
      return { event: { kind: "other", type: `retell ${event}` }, payloadKey: otherEventKey(`retell_${event}`, rawBody) };
    }
    if (typeof call.call_id !== "string" || !CALL_ID.test(call.call_id)) throw missingFields(["call.call_id"]);
    const conversationId = platformConversationId("retell", call.call_id);
    const analysis = call.call_analysis !== null && typeof call.call_analysis === "object" ? objectAt(call.call_analysis) : null;
    const startedAt = instantAt(call.start_timestamp);
    const endedAt = instantAt(call.end_timestamp);
    const span = startedAt && endedAt && endedAt >= startedAt ? (endedAt.getTime() - startedAt.getTime()) / 1000 : null;
    const reason = typeof call.disconnection_reason === "string" ? call.disconnection_reason : "";
    const failed = call.call_status === "not_connected" || NEVER_CONNECTED.test(reason);
    const summary = textAt(analysis?.call_summary, TEXT_LIMITS.summary);
    const eventAt = endedAt ?? startedAt;
    const transcript = retellTurns(call);
    return {
      event: {
        kind: "call",
        call: {
          conversationId,
          agentId: textAt(call.agent_id, TEXT_LIMITS.agentId),
          occurredAt: startedAt ?? endedAt ?? new Date(),
          summary: summary || (failed ? notConnectedSummary(reason || "not_connected") : ""),
          callSuccessful: !failed && analysis?.call_successful === true,
          durationSecs: secondsIn(numberAt(call.duration_ms), 0.001) ?? secondsIn(span) ?? 0,
          transcriptLength: transcript.length,
          transcript,
          ...collectedFields(objectAt(analysis?.custom_analysis_data)),
          // As ElevenLabs' failed calls: nobody spoke, so nothing to triage first.
          ...(failed ? { severity: "moderate" as const } : {}),
          status: failed ? "failed" : "active",
          callerPhone: normalisePhone(call.direction === "outbound" ? call.to_number : call.from_number),
          failureReason: failed ? failureReasonOf(reason) : null,
          platform: "retell",
          recordingUrl: linkAt(call.recording_url),
          recordingFallbackUrl: null,
          // A call that never connected has nothing to wait for.
          hasAnalysis: analysis !== null || failed,
        },
      },
      payloadKey: platformEventKey(conversationId, event, eventAt && Math.floor(eventAt.getTime() / 1000), rawBody),
    };
  },
  tools: retellTools,
  control: retellControl,
};
