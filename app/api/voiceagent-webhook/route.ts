import { bodyChunks } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { acceptWebhook } from "@/lib/http/webhook";
import { WEBHOOK_MAX_AUDIO_BODY_BYTES } from "@/lib/intake/receive";

export const dynamic = "force-dynamic";

/**
 * Post-call events from the voice-agent platform (see docs/webhook.md); the body is read raw, for
 * the signature. The production server answers this endpoint itself (lib/http/direct-answers.ts);
 * this file serves it under `next dev` and `next start`.
 */
export const POST = apiRoute("elevenlabsWebhook", "POST", async ({ request }) =>
  json(await acceptWebhook("elevenlabs", request.headers, bodyChunks(request, WEBHOOK_MAX_AUDIO_BODY_BYTES))),
);
