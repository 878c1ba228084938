import { bodyChunks } from "@/lib/http/body";
import { platformRoute } from "@/lib/http/platform-route";
import { json } from "@/lib/http/respond";
import { acceptWebhook } from "@/lib/http/webhook";
import { platformAdapters } from "@/lib/voice-platforms/adapters";
import { webhookRoute } from "@/lib/voice-platforms/endpoints";

export const dynamic = "force-dynamic";

/**
 * Each voice-agent platform's events but ElevenLabs' (docs/webhook.md: Vapi's, Retell's), at
 * /api/voiceagent-webhook/<platform>, behind its own endpoint; the body is read raw, for the
 * credential. The production server answers these endpoints itself (lib/http/direct-answers.ts).
 */
export const POST = platformRoute(webhookRoute, (platform) => async ({ request }) =>
  json(await acceptWebhook(platform, request.headers, bodyChunks(request, platformAdapters[platform].maxBodyBytes))),
);
