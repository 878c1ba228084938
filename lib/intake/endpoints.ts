import { z } from "zod";
import type { Endpoint } from "../contract/endpoint";
import type { ErrorCode } from "../contract/error-codes";
import { perPlatform, platformEndpoints, webhookRoute } from "../voice-platforms/endpoints";
import type { PlatformEndpoints } from "../voice-platforms/platform";

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

/** A platform's webhook: its own declaration (lib/voice-platforms/<name>/endpoints.ts) with what every platform's shares. */
function webhookEndpoint({ path, rateLimit, stored, ...operation }: PlatformEndpoints["webhook"]) {
  return {
    path,
    errorFormat: "webhook" as const,
    protection: { rateLimit },
    methods: { POST: { ...operation, permission: "public" as const, responses: webhookAnswer(stored), errors: WEBHOOK_ERRORS } },
  } satisfies Endpoint;
}

/**
 * The voice-agent platforms' webhooks, one endpoint per platform (docs/webhook.md), named
 * `<platform>Webhook`. Composed into the one registry by lib/http/endpoints.ts.
 */
export const intakeEndpoints = perPlatform(webhookRoute, (platform) => webhookEndpoint(platformEndpoints[platform].webhook));
