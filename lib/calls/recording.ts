import type { Actor } from "../access/actor";
import { auditRead } from "../audit/reads";
import { notFound } from "../domain-error";
import { type ByteRange, getObjectStore } from "../storage/get-object-store";
import { withDatabase } from "../db/with-database";

/** One answer of GET /api/calls/{id}/recording: the whole recording, the range asked for, or none. */
export type RecordingResponse =
  | {
      kind: "content";
      /** Whole recording, or one range of it. */
      partial: boolean;
      range: ByteRange;
      size: number;
      contentType: string;
      body: ReadableStream<Uint8Array>;
    }
  /** The range starts beyond the recording's `size` bytes. */
  | { kind: "unsatisfiable"; size: number };

/**
 * The byte range of a `Range: bytes=...` header: `a-b`, `a-` or the suffix `-n`; "unsatisfiable"
 * when it starts beyond the recording. Anything else (several ranges, other units) is undefined:
 * answered with the whole recording, as RFC 9110 allows.
 */
export function parseRange(header: string | null, size: number): ByteRange | undefined | "unsatisfiable" {
  const match = header === null ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  const [first, last] = [match[1], match[2]];
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return end < start ? undefined : { start, end };
}

/**
 * The call's recording, streamed from object storage (never read whole). A person's listening is
 * audited on every request, whatever its range, and kept once per listening window
 * (lib/audit/record-audit.ts): seeks and a player's follow-up ranges add no row.
 */
export async function openRecording(conversationId: string, rangeHeader: string | null, actor: Actor): Promise<RecordingResponse> {
  const recording = await withDatabase(async (db) => {
    const call = await db.call.findUnique({ where: { conversationId }, select: { id: true } });
    return call && db.callRecording.findUnique({ where: { conversationId } });
  });
  if (!recording) throw notFound(`No recording for call ${conversationId}`);
  const size = Number(recording.sizeBytes);
  const asked = size === 0 ? "unsatisfiable" : parseRange(rangeHeader, size);
  if (asked === "unsatisfiable") return { kind: "unsatisfiable", size };
  const range = asked ?? { start: 0, end: size - 1 };
  await auditRead(actor, "call.recording_played", conversationId);
  const body = await getObjectStore().readRange(recording.objectKey, range);
  if (!body) throw notFound(`No recording for call ${conversationId}`);
  return { kind: "content", partial: asked !== undefined, range, size, contentType: recording.contentType, body };
}
