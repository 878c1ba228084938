import { z } from "zod";
import { type Endpoint, rawBody } from "../contract/endpoint";
import type { ErrorCode } from "../contract/error-codes";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { webhookEventSchema } from "../voice-platforms/elevenlabs/payload";
import { retellEventSchema } from "../voice-platforms/retell/schema";
import { vapiMessageSchema } from "../voice-platforms/vapi/schema";

/** The webhook's 200 body: a stored call, or an event of another type archived without a record. */
const webhookAnswerSchema = z.object({
  status: z.literal("success"),
  message: z.enum(["Webhook received", "Event ignored"]),
});

/** What every platform's webhook answers (lib/intake): the same body, the same errors. */
const webhookAnswer = (description: string) =>
  ({ 200: { description, body: { name: "WebhookResponse", schema: webhookAnswerSchema } } }) as const;
const WEBHOOK_ERRORS: ErrorCode[] = [
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "INVALID_JSON",
  "MISSING_FIELDS",
  "INVALID_SIGNATURE",
  "STORAGE_ERROR",
  "GEOCODING_ERROR",
];

/**
 * The voice-agent platforms' webhooks, one endpoint per platform (docs/webhook.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const intakeEndpoints = {
  webhook: {
    path: "/api/voiceagent-webhook",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.webhook },
    methods: {
      POST: {
        operationId: "voiceAgentWebhook",
        permission: "public",
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
        responses: webhookAnswer(
          "Stored: a call (post_call_transcription), a failed call (call_initiation_failure), a recording " +
            "(post_call_audio); any other type is archived and answered `Event ignored`. A 5xx is never for the content. " +
            "Also 200 while the database is down: the archived payload is recorded once it is back (docs/webhook.md).",
        ),
        errors: WEBHOOK_ERRORS,
      },
    },
  },

  vapiWebhook: {
    path: "/api/voiceagent-webhook/vapi",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.vapiWebhook },
    methods: {
      POST: {
        operationId: "vapiWebhook",
        permission: "public",
        summary: "Server message from Vapi (end-of-call-report makes a call)",
        headers: {
          "x-signature": {
            description: 'HMAC credential: hex HMAC-SHA256 of "<x-timestamp>.<raw body>" keyed by VAPI_WEBHOOK_SECRET',
            required: false,
          },
          "x-timestamp": { description: "HMAC credential: Unix seconds or milliseconds, within 5 minutes", required: false },
          "x-vapi-secret": {
            description: "Without an HMAC credential: VAPI_WEBHOOK_SECRET itself (or `Authorization: Bearer <secret>`)",
            required: false,
          },
        },
        body: rawBody(
          { name: "VapiServerMessage", schema: vapiMessageSchema },
          "The credential covers the raw bytes: lib/intake reads and maps the body itself (lib/voice-platforms/vapi/adapter.ts).",
        ),
        responses: webhookAnswer(
          "Stored: a call (end-of-call-report, one record per call id); any other message type is archived and " +
            "answered `Event ignored`. Also 200 while the database is down (docs/webhook.md).",
        ),
        errors: WEBHOOK_ERRORS,
      },
    },
  },

  retellWebhook: {
    path: "/api/voiceagent-webhook/retell",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.retellWebhook },
    methods: {
      POST: {
        operationId: "retellWebhook",
        permission: "public",
        summary: "Webhook event from Retell (call_ended and call_analyzed make one call)",
        headers: {
          "x-retell-signature": {
            description: '`v=<Unix ms>,d=<hex HMAC-SHA256 of "<raw body><Unix ms>">` keyed by RETELL_API_KEY, within 5 minutes',
            required: true,
          },
        },
        body: rawBody(
          { name: "RetellWebhookEvent", schema: retellEventSchema },
          "The signature covers the raw bytes: lib/intake reads and maps the body itself (lib/voice-platforms/retell/adapter.ts).",
        ),
        responses: webhookAnswer(
          "Stored: call_ended and call_analyzed of one call make one record with its analysis, in either order; any " +
            "other event is archived and answered `Event ignored`. Also 200 while the database is down (docs/webhook.md).",
        ),
        errors: WEBHOOK_ERRORS,
      },
    },
  },
} satisfies Record<string, Endpoint>;
