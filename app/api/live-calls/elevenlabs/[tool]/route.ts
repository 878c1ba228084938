import { bodyChunks, requireJsonContentType } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/voice-platforms/limits";
import { answerLiveTools } from "@/lib/on-the-line/answer-tools";

export const dynamic = "force-dynamic";

/** An ElevenLabs server tool, one URL per live tool (docs/webhook.md, "Live calls"). */
export const POST = apiRoute("elevenlabsLiveTools", "POST", async ({ request, params }) => {
  requireJsonContentType(request.headers);
  return json(await answerLiveTools("elevenlabs", { headers: request.headers, body: bodyChunks(request, WEBHOOK_MAX_BODY_BYTES) }, params.tool));
});
