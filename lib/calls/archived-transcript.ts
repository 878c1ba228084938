import { log } from "../log";
import { getObjectStore } from "../storage/get-object-store";
import { type TranscriptTurn, transcriptTurns } from "./handed-over";

/**
 * The turns of a voice-agent call stored before call_transcripts existed, read back from its
 * archived payload (docs/calls.md, "Transcript"): only for a call that had turns and has no
 * stored ones. A payload that cannot be read leaves the detail without a transcript, not failed.
 */
export async function archivedTranscript(call: {
  conversationId: string;
  payloadKey: string | null;
  transcriptLength: number;
}): Promise<TranscriptTurn[]> {
  if (call.payloadKey === null || call.transcriptLength === 0) return [];
  try {
    const body = await getObjectStore().get(call.payloadKey);
    if (body === undefined) return [];
    const payload = JSON.parse(body.toString("utf8")) as { data?: { transcript?: unknown } };
    return Array.isArray(payload.data?.transcript) ? transcriptTurns(payload.data.transcript) : [];
  } catch (error) {
    log.warn({ conversationId: call.conversationId, payloadKey: call.payloadKey, err: error }, "archived transcript unreadable");
    return [];
  }
}
