import { BlobNotFoundError, del, head, list, put } from "@vercel/blob";
import type { ByteRange, ObjectBody, ObjectStore } from "./object-store";

/** Every call to the blob API answers (or fails) within this, so a request stays under 30 s. */
const BLOB_TIMEOUT_MS = 10_000;
/** A streamed body (a recording, up to 64 MB) gets longer to go up. */
const BLOB_STREAM_TIMEOUT_MS = 120_000;
/** Never written: outside the `calls/` layout. */
const AVAILABILITY_PROBE_KEY = ".health/availability-probe";

/**
 * Vercel Blob, private objects under the exact key given (no random suffix), overwritable so a
 * redelivered webhook lands on the same key. The API base comes from VERCEL_BLOB_API_URL when
 * set (the SDK reads it), which is how the tests point it at a local stand-in.
 */
export class VercelBlobObjectStore implements ObjectStore {
  readonly kind = "vercel-blob";

  constructor(private readonly token: string) {}

  async put(key: string, body: ObjectBody, contentType: string): Promise<void> {
    await put(key, body, {
      access: "private",
      addRandomSuffix: false,
      allowOverwrite: true,
      contentType,
      token: this.token,
      abortSignal: AbortSignal.timeout(typeof body === "string" || Buffer.isBuffer(body) ? BLOB_TIMEOUT_MS : BLOB_STREAM_TIMEOUT_MS),
    });
  }

  /** The blob's response (a range of it when asked), or undefined when there is none. */
  private async fetchObject(key: string, headers: Record<string, string> = {}): Promise<Response | undefined> {
    let url: string;
    try {
      ({ url } = await head(key, { token: this.token, abortSignal: AbortSignal.timeout(BLOB_TIMEOUT_MS) }));
    } catch (error) {
      if (error instanceof BlobNotFoundError) return undefined;
      throw error;
    }
    // The SDK's get() only accepts Vercel hosts; a private blob is read with the token.
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${this.token}`, ...headers },
      signal: AbortSignal.timeout(BLOB_TIMEOUT_MS),
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`Blob read failed with status ${response.status}`);
    return response;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const response = await this.fetchObject(key);
    return response && Buffer.from(await response.arrayBuffer());
  }

  async readRange(key: string, range: ByteRange): Promise<ReadableStream<Uint8Array> | undefined> {
    const response = await this.fetchObject(key, { range: `bytes=${range.start}-${range.end}` });
    return response?.body ?? undefined;
  }

  async list(folder: string): Promise<string[]> {
    const prefix = folder.endsWith("/") ? folder : `${folder}/`;
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ prefix, cursor, limit: 1000, token: this.token, abortSignal: AbortSignal.timeout(BLOB_TIMEOUT_MS) });
      for (const blob of page.blobs) if (!blob.pathname.slice(prefix.length).includes("/")) keys.push(blob.pathname);
      cursor = page.hasMore ? page.cursor : undefined;
    } while (cursor);
    return keys.sort();
  }

  async delete(key: string): Promise<void> {
    await del(key, { token: this.token, abortSignal: AbortSignal.timeout(BLOB_TIMEOUT_MS) });
  }

  /**
   * One metadata read of a fixed key that never exists: "not found" proves the API answers and
   * accepts the read-write token, without the billed put and delete of a probe object. A store
   * that refuses writes while it still serves reads (quota) shows up as the webhook's 500.
   */
  async checkAvailable(): Promise<void> {
    try {
      await head(AVAILABILITY_PROBE_KEY, { token: this.token, abortSignal: AbortSignal.timeout(BLOB_TIMEOUT_MS) });
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
    }
  }
}
