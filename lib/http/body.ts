import type { IncomingMessage } from "node:http";
import { parseJson } from "../domain-error";
import { ApiError } from "./api-error";

/** Bodies larger than this are refused with 413 before they are read whole. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export function requireJsonContentType(headers: Headers): void {
  const type = headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type.trim())) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
  }
}

const tooLarge = (maxBytes: number) => new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxBytes} bytes`);

/**
 * The body as it streams in, for a reader that keeps its own limits (see readBodyBytes); a
 * declared Content-Length over `maxBytes` is refused before any of it is read.
 */
export async function* bodyChunks(request: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopped early (a limit, a bad signature): stop receiving the rest.
    await reader.cancel().catch(() => undefined);
  }
}

const incomplete = (message: string) => new ApiError("INVALID_PARAMETER", message, {}, { label: "Incomplete body" });

/**
 * Chunks passed on until `maxBytes` have gone by: a body sent without Content-Length is cut there
 * (413). A body that stops short is refused (400) rather than read as a shorter one: one that
 * breaks off (the client gone), or ends before its Content-Length (`contentLength`, the header as
 * sent) says it would. For a reader that acts on the whole body only (an import).
 */
export async function* boundedChunks(chunks: AsyncIterable<Uint8Array>, maxBytes: number, contentLength: string | null = null): AsyncGenerator<Uint8Array> {
  let received = 0;
  try {
    for await (const chunk of chunks) {
      received += chunk.byteLength;
      if (received > maxBytes) throw tooLarge(maxBytes);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw incomplete(`The request body broke off after ${received} bytes (${(error as Error).message})`);
  }
  if (contentLength !== null && received < Number(contentLength)) {
    throw incomplete(`The request body ended after ${received} of the ${contentLength} bytes its Content-Length declares`);
  }
}

/**
 * bodyChunks for a node:http request (the production server's direct path). A reader that stops
 * early leaves the rest to be drained, not the socket destroyed: the answer still has to go out.
 */
export async function* nodeBodyChunks(request: IncomingMessage, maxBytes: number): AsyncGenerator<Uint8Array> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  try {
    yield* request.iterator({ destroyOnReturn: false });
  } finally {
    if (!request.readableEnded) request.resume();
  }
}

/** The raw body bytes as received, read as a stream so an oversized body is refused early. */
async function readBodyBytes(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Content-Type check, size limit and JSON parsing for an ordinary JSON POST/PATCH body: bytes that
 * are not UTF-8 are 400 INVALID_JSON, never read as U+FFFD into what is stored.
 */
export async function readJsonBody(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  requireJsonContentType(request.headers);
  return parseJson(await readBodyBytes(request, maxBytes), "refuse");
}
