import { bodyChunks, requireJsonContentType } from "@/lib/http/body";
import { platformRoute } from "@/lib/http/platform-route";
import { json } from "@/lib/http/respond";
import { answerLiveTools } from "@/lib/on-the-line/answer-tools";
import { liveToolsRoute } from "@/lib/voice-platforms/endpoints";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/voice-platforms/limits";

export const dynamic = "force-dynamic";

/**
 * A platform's tool requests for Mayday's live tools at /api/live-calls/<platform> (docs/webhook.md,
 * "Live calls": Vapi's tool-calls, Retell's custom functions), behind its own endpoint; the body is
 * read raw, for the credential. ElevenLabs' are at /api/live-calls/elevenlabs/<tool>.
 */
export const POST = platformRoute(liveToolsRoute, (platform) => async ({ request }) => {
  requireJsonContentType(request.headers);
  return json(await answerLiveTools(platform, { headers: request.headers, body: bodyChunks(request, WEBHOOK_MAX_BODY_BYTES) }));
});
