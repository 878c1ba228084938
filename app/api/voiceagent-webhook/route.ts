import { bodyChunks, requireJsonContentType } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { receiveWebhook, WEBHOOK_MAX_AUDIO_BODY_BYTES } from "@/lib/intake";
import { signatureHeaderOf } from "@/lib/webhook/signature";

export const dynamic = "force-dynamic";

/** Post-call events from the voice-agent platform (see docs/webhook.md); the body is read raw, for the signature. */
export const POST = apiRoute("webhook", "POST", async ({ request }) => {
  requireJsonContentType(request);
  const outcome = await receiveWebhook({
    body: bodyChunks(request, WEBHOOK_MAX_AUDIO_BODY_BYTES),
    signatureHeader: signatureHeaderOf(request.headers),
  });
  return json({ status: "success", message: outcome.kind === "ignored" ? "Event ignored" : "Webhook received" });
});
