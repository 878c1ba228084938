import { createHmac } from "node:crypto";
import { z } from "zod";
import { collectedFields, missingFields, type TranscriptTurn, transcriptTurns } from "../../webhook/payload";
import { normalisePhone, TEXT_LIMITS } from "../../webhook/sanitise";
import { invalidSignature, matches } from "../../webhook/signature";
import { otherEventKey, platformConversationId, platformEventKey } from "../keys";
import { failureReasonOf, type Fields, instantAt, linkAt, notConnectedSummary, numberAt, objectAt, secondsIn, textAt } from "./fields";
import { WEBHOOK_MAX_BODY_BYTES } from "../limits";
import type { PlatformAdapter } from "./platform";
import type { LiveCallEvent } from "../event";

/** Retell's events that make a call (docs/webhook.md, "Retell"); the live ones and the rest are archived and acknowledged. */
export const RETELL_CALL_EVENTS = ["call_ended", "call_analyzed"] as const;

/** Retell's live events (docs/webhook.md, "Live events"): the call started, and its transcript so far at each turn. */
export const RETELL_LIVE_EVENTS = ["call_started", "transcript_updated"] as const;

export const RETELL_SIGNATURE_HEADER = "x-retell-signature";
/** How far the signature's timestamp may be from our clock, either way (retell-sdk's verify uses the same). */
export const RETELL_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** Retell's call ids as they may appear in a conversation_id (`retell:<id>`, at most 200 characters). */
const CALL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,192}$/;

/** `disconnection_reason`s of an outbound call that never connected (its `call_status` is `not_connected`). */
const NEVER_CONNECTED = /^dial_|^invalid_destination$|^telephony_provider_permission_denied$/;

/** The documented shape, for the OpenAPI document; the adapter reads it leniently (./fields.ts). */
export const retellEventSchema = z
  .object({
    event: z.string().meta({
      description: "`call_ended` and `call_analyzed` make (one) call; `call_started` and `transcript_updated` are live events; any other event is archived and acknowledged",
    }),
    call: z.object({
      call_id: z.string().meta({ description: "Retell's call id; the call's conversation_id is `retell:<call_id>`" }),
      agent_id: z.string().optional(),
      call_status: z.string().optional().meta({ description: "`not_connected`: a failed call" }),
      direction: z.enum(["inbound", "outbound"]).optional(),
      from_number: z.string().optional().meta({ description: "The caller (inbound calls)" }),
      to_number: z.string().optional().meta({ description: "The caller (outbound calls)" }),
      start_timestamp: z.number().optional().meta({ description: "Unix milliseconds" }),
      end_timestamp: z.number().optional().meta({ description: "Unix milliseconds" }),
      duration_ms: z.number().optional(),
      transcript: z.string().optional(),
      transcript_object: z.array(z.unknown()).optional(),
      recording_url: z.string().optional(),
      disconnection_reason: z.string().optional(),
      call_analysis: z
        .object({
          call_summary: z.string().optional(),
          call_successful: z.boolean().optional(),
          custom_analysis_data: z.record(z.string(), z.unknown()).optional().meta({
            description: "emergency_type, severity, location, latitude, longitude",
          }),
        })
        .optional()
        .meta({ description: "call_analyzed only" }),
    }),
  })
  .meta({ description: "A Retell webhook event; fields beyond these are kept in the archived payload" });

/** A header value as Retell sends it (retell-sdk's `sign`); for tests and the bench. */
export function retellSignatureHeader(apiKey: string, rawBody: Buffer | string, timestampMs = Date.now()): string {
  return `v=${timestampMs},d=${createHmac("sha256", apiKey).update(rawBody).update(String(timestampMs)).digest("hex")}`;
}

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

/**
 * POST /api/voiceagent-webhook/retell. `x-retell-signature: v=<Unix ms>,d=<hex HMAC-SHA256>`,
 * keyed by the Retell API key (RETELL_API_KEY) over the raw body followed by the timestamp's
 * digits, as retell-sdk's `Retell.verify` computes it; the timestamp within 5 minutes of ours.
 */
export const retell: PlatformAdapter = {
  platform: "retell",
  maxBodyBytes: WEBHOOK_MAX_BODY_BYTES,
  startCheck(headers, config, nowMs = Date.now()) {
    const key = config.RETELL_API_KEY;
    if (!key) throw invalidSignature("RETELL_API_KEY is not configured: no Retell request can be verified");
    const header = headers.get(RETELL_SIGNATURE_HEADER);
    if (header === null) throw invalidSignature(`${RETELL_SIGNATURE_HEADER} is required`);
    const match = /^v=(\d{1,15}),d=([0-9a-fA-F]{64})$/.exec(header.trim());
    if (!match) throw invalidSignature(`${RETELL_SIGNATURE_HEADER} must be v=<timestamp>,d=<signature>`);
    const [, timestamp, digest] = match;
    if (Math.abs(nowMs - Number(timestamp)) > RETELL_SIGNATURE_TOLERANCE_MS) {
      throw invalidSignature("Signature timestamp is more than 5 minutes from now");
    }
    const hmac = createHmac("sha256", key);
    return {
      verified: true,
      update: (chunk) => hmac.update(chunk),
      verify() {
        if (!matches(hmac.update(timestamp).digest(), digest)) throw invalidSignature("Signature does not match");
      },
    };
  },
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
};
