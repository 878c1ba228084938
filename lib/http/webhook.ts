import { receiveWebhook } from "../intake/receive";
import type { Platform } from "../vocabulary";
import { requireJsonContentType } from "./body";

/**
 * A platform's webhook (POST /api/voiceagent-webhook, and /api/voiceagent-webhook/<platform> for the
 * others) once protected: the work of their route files (Next), and of the production server's
 * direct path (lib/http/direct-answers.ts), which serves them without Next.
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
