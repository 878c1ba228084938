import { z } from "zod";
import { rawBody } from "../../contract/endpoint";
import { rateLimitPolicies } from "../../contract/rate-limit-policies";
import type { PlatformEndpoints } from "../platform";
import { LIVE_TOOLS } from "../tools";
import { webhookEventSchema } from "./payload";
import { elevenLabsToolSchema } from "./tool-schema";

/** ElevenLabs' two endpoints, at their historical paths (docs/webhook.md, "ElevenLabs" and "Live calls"). */
export const elevenLabsEndpoints = {
  webhook: {
    path: "/api/voiceagent-webhook",
    operationId: "voiceAgentWebhook",
    rateLimit: rateLimitPolicies.webhook,
    summary: "Post-call event from the voice-agent platform",
    headers: {
      "voiceagent-signature": {
        description: '`t=<unix seconds>,v0=<hex HMAC-SHA256 of "<t>.<raw body>">`',
        required: false,
      },
    },
    body: rawBody(
      { name: "WebhookEvent", schema: webhookEventSchema },
      "The signature covers the raw bytes: lib/intake reads and validates the body itself (lib/voice-platforms/elevenlabs/payload.ts).",
    ),
    stored:
      "Stored: a call (post_call_transcription), a failed call (call_initiation_failure), a recording " +
      "(post_call_audio); any other type is archived and answered `Event ignored`. A 5xx is never for the content. " +
      "Also 200 while the database is down: the archived payload is recorded once it is back (docs/webhook.md).",
  },
  liveTools: {
    path: "/api/live-calls/elevenlabs/:tool",
    operationId: "liveToolsElevenLabs",
    params: z.object({ tool: z.enum(LIVE_TOOLS).meta({ description: "report_emergency or incident_status" }) }),
    summary: "ElevenLabs server tool: report_emergency or incident_status while the call is in progress (one URL per tool)",
    headers: {
      "x-mayday-tool-secret": { description: "ELEVENLABS_TOOL_SECRET, sent by the tool as a workspace secret", required: true },
    },
    body: rawBody(
      { name: "ElevenLabsToolRequest", schema: elevenLabsToolSchema },
      "Read by lib/voice-platforms/elevenlabs/tools.ts once the secret checked out.",
    ),
    errors: ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON", "MISSING_FIELDS", "INVALID_PARAMETER", "INVALID_SIGNATURE", "DATABASE_ERROR"],
  },
} satisfies PlatformEndpoints;
