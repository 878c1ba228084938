import { bodyChunks, requireJsonContentType } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/voice-platforms/limits";
import { answerLiveTools } from "@/lib/on-the-line/answer-tools";

export const dynamic = "force-dynamic";

/** A Retell custom function for Mayday's live tools (docs/webhook.md, "Live calls"); the body is read raw, for the signature. */
export const POST = apiRoute("liveToolsRetell", "POST", async ({ request }) => {
  requireJsonContentType(request.headers);
  return json(await answerLiveTools("retell", { headers: request.headers, body: bodyChunks(request, WEBHOOK_MAX_BODY_BYTES) }));
});
