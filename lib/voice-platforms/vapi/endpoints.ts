import { rawBody } from "../../contract/endpoint";
import type { PlatformEndpoints } from "../platform";
import { vapiMessageSchema, vapiToolAnswerSchema, vapiToolCallsSchema } from "./schema";

/** Vapi's credential, as its server messages and tool-calls send it (./signature.ts). */
const credential = {
  "x-signature": {
    description: 'HMAC credential: hex HMAC-SHA256 of "<x-timestamp>.<raw body>" keyed by VAPI_WEBHOOK_SECRET',
    required: false,
  },
  "x-timestamp": { description: "HMAC credential: Unix seconds or milliseconds, within 5 minutes", required: false },
  "x-vapi-secret": {
    description: "Without an HMAC credential: VAPI_WEBHOOK_SECRET itself (or `Authorization: Bearer <secret>`)",
    required: false,
  },
};

/** Vapi's two endpoints (docs/webhook.md, "Vapi" and "Live calls"). */
export const vapiEndpoints = {
  webhook: {
    path: "/api/voiceagent-webhook/vapi",
    operationId: "vapiWebhook",
    // Vapi does not retry a refused report, and posts from few addresses: room for 50 a second.
    rateLimit: { bucket: "vapi-webhook", limit: 3000, windowMs: 60_000, whenStoreDown: "allow" },
    summary: "Server message from Vapi (end-of-call-report makes a call)",
    headers: credential,
    body: rawBody(
      { name: "VapiServerMessage", schema: vapiMessageSchema },
      "The credential covers the raw bytes: lib/intake reads and maps the body itself (lib/voice-platforms/vapi/adapter.ts).",
    ),
    stored:
      "Stored: a call (end-of-call-report, one record per call id); any other message type is archived and " +
      "answered `Event ignored`. Also 200 while the database is down (docs/webhook.md).",
  },
  liveTools: {
    path: "/api/live-calls/vapi",
    operationId: "liveToolsVapi",
    summary: "Vapi tool-calls: report_emergency and incident_status while the call is in progress",
    headers: credential,
    body: rawBody(
      { name: "VapiToolCalls", schema: vapiToolCallsSchema },
      "The credential covers the raw bytes: lib/on-the-line reads the body itself (lib/on-the-line/answer-tools.ts).",
    ),
    answer: {
      description:
        "One result per tool call, in order: the LiveStatus as one line of JSON, or an `error` for a tool Mayday does not " +
        "have or one it could not run (the database down: Vapi ignores any status but 200)",
      body: { name: "VapiToolResults", schema: vapiToolAnswerSchema },
    },
    errors: ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON", "MISSING_FIELDS", "INVALID_SIGNATURE"],
  },
} satisfies PlatformEndpoints;
