import { receiveWebhook } from "../intake/receive";
import type { Platform } from "../vocabulary";
import { requireJsonContentType } from "./body";
import type { RouteName } from "./endpoints";

/** Each platform's endpoint in lib/intake/endpoints.ts (its adapter: lib/voice-platforms). */
export const webhookRoutes = {
  elevenlabs: "webhook",
  vapi: "vapiWebhook",
  retell: "retellWebhook",
} as const satisfies Record<Platform, RouteName>;

/**
 * POST /api/voiceagent-webhook (and its /vapi and /retell siblings) once protected: the work of
 * their route files (Next), and of the production server's direct path (lib/http/direct-answers.ts),
 * which serves them without Next.
 */
export async function acceptWebhook(
  platform: Platform,
  headers: Headers,
  body: AsyncIterable<Uint8Array>,
): Promise<{ status: "success"; message: string }> {
  requireJsonContentType(headers);
  const outcome = await receiveWebhook({ platform, headers, body });
  return { status: "success", message: outcome.kind === "ignored" ? "Event ignored" : "Webhook received" };
}
