import { bodyChunks, requireJsonContentType } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/voice-platforms/limits";
import { answerLiveTools } from "@/lib/on-the-line/answer-tools";

export const dynamic = "force-dynamic";

/** Vapi's tool-calls for Mayday's live tools (docs/webhook.md, "Live calls"); the body is read raw, for the credential. */
export const POST = apiRoute("liveToolsVapi", "POST", async ({ request }) => {
  requireJsonContentType(request.headers);
  return json(await answerLiveTools("vapi", { headers: request.headers, body: bodyChunks(request, WEBHOOK_MAX_BODY_BYTES) }));
});
