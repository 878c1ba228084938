import { rawBody } from "../../contract/endpoint";
import type { PlatformEndpoints } from "../platform";
import { retellEventSchema, retellFunctionSchema } from "./schema";

/** Retell's signature, on its webhook events and its custom functions alike (./signature.ts). */
const signature = {
  "x-retell-signature": {
    description: '`v=<Unix ms>,d=<hex HMAC-SHA256 of "<raw body><Unix ms>">` keyed by RETELL_API_KEY, within 5 minutes',
    required: true,
  },
};

/** Retell's two endpoints (docs/webhook.md, "Retell" and "Live calls"). */
export const retellEndpoints = {
  webhook: {
    path: "/api/voiceagent-webhook/retell",
    operationId: "retellWebhook",
    rateLimit: { bucket: "retell-webhook", limit: 3000, windowMs: 60_000, whenStoreDown: "allow" },
    summary: "Webhook event from Retell (call_ended and call_analyzed make one call)",
    headers: signature,
    body: rawBody(
      { name: "RetellWebhookEvent", schema: retellEventSchema },
      "The signature covers the raw bytes: lib/intake reads and maps the body itself (lib/voice-platforms/retell/adapter.ts).",
    ),
    stored:
      "Stored: call_ended and call_analyzed of one call make one record with its analysis, in either order; any " +
      "other event is archived and answered `Event ignored`. Also 200 while the database is down (docs/webhook.md).",
  },
  liveTools: {
    path: "/api/live-calls/retell",
    operationId: "liveToolsRetell",
    summary: "Retell custom function: report_emergency or incident_status while the call is in progress",
    headers: signature,
    body: rawBody(
      { name: "RetellCustomFunction", schema: retellFunctionSchema },
      "The signature covers the raw bytes: lib/on-the-line reads the body itself (lib/on-the-line/answer-tools.ts).",
    ),
    errors: ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON", "MISSING_FIELDS", "INVALID_SIGNATURE", "DATABASE_ERROR"],
  },
} satisfies PlatformEndpoints;
