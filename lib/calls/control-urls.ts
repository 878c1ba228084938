import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";

/** A control URL longer than this is not kept: Vapi's are `https://<host>/<call id>/control`. */
const CONTROL_URL_MAX_CHARACTERS = 2048;

/**
 * live_call_controls' door: the latest live control URL the platform sent for a call (Vapi's
 * `call.monitor.controlUrl`, in every server message), kept beside the call rather than in the
 * calls' own write, for Vapi's live control (lib/voice-platforms/vapi/control.ts) to push a
 * dispatcher's instruction or a transfer through. Kept as sent: whether it may be called is decided at each use (https, the
 * platform's published host, the SSRF guard). A call not yet stored keeps nothing (the message
 * that stores it comes with the URL again).
 */
export async function rememberControlUrl(conversationId: string, controlUrl: unknown): Promise<void> {
  if (typeof controlUrl !== "string" || controlUrl === "" || controlUrl.length > CONTROL_URL_MAX_CHARACTERS) return;
  await withDatabase((db) => db.$executeRaw`
    INSERT INTO live_call_controls (call_id, control_url, updated_at)
    SELECT id, ${controlUrl}, clock_timestamp() FROM calls WHERE conversation_id = ${conversationId}
    ON CONFLICT (call_id) DO UPDATE SET control_url = EXCLUDED.control_url, updated_at = EXCLUDED.updated_at
    WHERE live_call_controls.control_url IS DISTINCT FROM EXCLUDED.control_url`);
}

/** The call's latest control URL, or null when the platform sent none. */
export async function controlUrlOf(tx: Pick<Db, "$queryRaw">, callId: string): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ control_url: string }[]>`SELECT control_url FROM live_call_controls WHERE call_id = ${callId}`;
  return row?.control_url ?? null;
}
