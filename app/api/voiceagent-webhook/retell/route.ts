import { bodyChunks } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { acceptWebhook } from "@/lib/http/webhook";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/intake/receive";

export const dynamic = "force-dynamic";

/**
 * Retell's webhook events (docs/webhook.md, "Retell"); the body is read raw, for the signature. The
 * production server answers this endpoint itself (lib/http/direct-answers.ts).
 */
export const POST = apiRoute("retellWebhook", "POST", async ({ request }) =>
  json(await acceptWebhook("retell", request.headers, bodyChunks(request, WEBHOOK_MAX_BODY_BYTES))),
);
