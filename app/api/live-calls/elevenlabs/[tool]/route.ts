import { bodyChunks, requireJsonContentType } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/intake/limits";
import { answerElevenLabs } from "@/lib/live-calls/platforms";

export const dynamic = "force-dynamic";

/** An ElevenLabs server tool, one URL per live tool (docs/webhook.md, "Live calls"). */
export const POST = apiRoute("liveToolsElevenLabs", "POST", async ({ request, params }) => {
  requireJsonContentType(request.headers);
  return json(await answerElevenLabs(params.tool, { headers: request.headers, body: bodyChunks(request, WEBHOOK_MAX_BODY_BYTES) }));
});
