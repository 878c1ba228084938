import { ApiError, notFound } from "../http/api-error";
import { type ByteRange, getObjectStore } from "../storage";
import { withCallStore } from "./store";

/** One answer of GET /api/calls/{id}/recording: the whole recording or the range asked for. */
export interface RecordingResponse {
  /** Whole recording, or one range of it. */
  partial: boolean;
  range: ByteRange;
  size: number;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

const unsatisfiable = (size: number) =>
  new ApiError(416, "RANGE_NOT_SATISFIABLE", "Range not satisfiable", `The recording has ${size} bytes`, {}, {
    "content-range": `bytes */${size}`,
  });

/**
 * The byte range of a `Range: bytes=...` header: `a-b`, `a-` or the suffix `-n`. Anything else
 * (several ranges, other units) is answered with the whole recording, as RFC 9110 allows.
 */
export function parseRange(header: string | null, size: number): ByteRange | undefined {
  const match = header === null ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  const [first, last] = [match[1], match[2]];
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) throw unsatisfiable(size);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) throw unsatisfiable(size);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return undefined;
  return { start, end };
}

/** The call's recording, streamed from object storage (never read whole). */
export async function openRecording(conversationId: string, rangeHeader: string | null): Promise<RecordingResponse> {
  const recording = await withCallStore(async (db) => {
    const call = await db.call.findUnique({ where: { conversationId }, select: { id: true } });
    return call && db.callRecording.findUnique({ where: { conversationId } });
  });
  if (!recording) throw notFound(`No recording for call ${conversationId}`);
  const size = Number(recording.sizeBytes);
  if (size === 0) throw unsatisfiable(0);
  const asked = parseRange(rangeHeader, size);
  const range = asked ?? { start: 0, end: size - 1 };
  const body = await getObjectStore().readRange(recording.objectKey, range);
  if (!body) throw notFound(`No recording for call ${conversationId}`);
  return { partial: asked !== undefined, range, size, contentType: recording.contentType, body };
}
