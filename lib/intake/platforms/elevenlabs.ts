import { parseEvent, type ParsedEvent, toFailedCall, toWebhookCall } from "../../webhook/payload";
import { signatureHeaderOf, startSignatureCheck } from "../../webhook/signature";
import type { IntakeEvent } from "../event";
import { payloadKeyOf } from "../keys";
import { WEBHOOK_MAX_AUDIO_BODY_BYTES } from "../limits";
import type { PlatformAdapter } from "./platform";

/** An ElevenLabs (or documented-form) event as intake records it. */
export function toIntakeEvent(parsed: ParsedEvent): IntakeEvent {
  switch (parsed.kind) {
    case "call":
      return { kind: "call", call: toWebhookCall(parsed.event) };
    case "failure":
      return { kind: "failure", call: toFailedCall(parsed.event) };
    case "audio":
      return { kind: "audio", event: parsed.event };
    case "other":
      return { kind: "other", type: parsed.type };
  }
}

/**
 * POST /api/voiceagent-webhook: ElevenLabs' post-call webhooks and the documented form
 * (docs/webhook.md): `voiceagent-signature` / `ElevenLabs-Signature`, keyed by
 * VOICEAGENT_WEBHOOK_SECRET; a recording may be up to 64 MB (spooled, lib/webhook/spool.ts).
 */
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
};
