import { bodyChunks } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { acceptWebhook } from "@/lib/http/webhook";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/intake/receive";

export const dynamic = "force-dynamic";

/**
 * Vapi's server messages (docs/webhook.md, "Vapi"); the body is read raw, for the credential. The
 * production server answers this endpoint itself (lib/http/direct-answers.ts).
 */
export const POST = apiRoute("vapiWebhook", "POST", async ({ request }) =>
  json(await acceptWebhook("vapi", request.headers, bodyChunks(request, WEBHOOK_MAX_BODY_BYTES))),
);
