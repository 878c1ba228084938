import type { Db } from "../db/client";

/** A recording archived in object storage, as call_recordings links it to its conversation. */
export interface RecordingLink {
  conversationId: string;
  key: string;
  /** As served back by GET /api/calls/{id}/recording: audio/mpeg, audio/wav, ... */
  contentType: string;
  sizeBytes: number;
}

/**
 * The one writer of call_recordings: links a recording to its conversation, whether or not the
 * call has arrived yet (the detail finds it by conversation_id). A second verified recording of
 * the same conversation replaces the first; an unverified one (an unsigned delivery) is linked
 * only where there is neither a call nor a recording: it may create, never change.
 */
export async function linkRecording(db: Db, { conversationId, key, contentType, sizeBytes }: RecordingLink, verified = true): Promise<void> {
  if (!verified) {
    await db.$executeRaw`
      INSERT INTO call_recordings (conversation_id, object_key, content_type, size_bytes)
      SELECT ${conversationId}, ${key}, ${contentType}, ${BigInt(sizeBytes)}
      WHERE NOT EXISTS (SELECT 1 FROM calls WHERE conversation_id = ${conversationId})
      ON CONFLICT (conversation_id) DO NOTHING`;
    return;
  }
  await db.$executeRaw`
    INSERT INTO call_recordings (conversation_id, object_key, content_type, size_bytes)
    VALUES (${conversationId}, ${key}, ${contentType}, ${BigInt(sizeBytes)})
    ON CONFLICT (conversation_id) DO UPDATE SET
      object_key = EXCLUDED.object_key, content_type = EXCLUDED.content_type, size_bytes = EXCLUDED.size_bytes,
      received_at = CURRENT_TIMESTAMP`;
}
