import { receiveWebhook } from "../intake";
import { signatureHeaderOf } from "../webhook/signature";
import { requireJsonContentType } from "./body";

/**
 * POST /api/voiceagent-webhook once protected: the work of its route file (Next), and of the
 * production server's direct path (lib/http/before-next.ts), which serves it without Next.
 */
export async function acceptWebhook(headers: Headers, body: AsyncIterable<Uint8Array>): Promise<{ status: "success"; message: string }> {
  requireJsonContentType(headers);
  const outcome = await receiveWebhook({ body, signatureHeader: signatureHeaderOf(headers) });
  return { status: "success", message: outcome.kind === "ignored" ? "Event ignored" : "Webhook received" };
}
