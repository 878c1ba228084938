import type { Readable } from "node:stream";

/** What may be stored: a stream is copied chunk by chunk, never held whole. */
export type ObjectBody = string | Buffer | Readable;

/** Bytes `start` to `end` of an object, both inclusive (an HTTP range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where full webhook payloads and recordings are archived. Keys look like
 * `calls/<id>/<id>_<date>_<time>.json` and `calls/<id>/<id>_recording.mp3` (or `.wav`, ...).
 * The interface lives apart from its implementations (local.ts, vercel-blob.ts) and from the
 * factory (get-object-store.ts) that picks one, so none of them imports another's module.
 */
export interface ObjectStore {
  readonly kind: string;
  put(key: string, body: ObjectBody, contentType: string): Promise<void>;
  /** The stored bytes, or undefined when there is no object under that key. */
  get(key: string): Promise<Buffer | undefined>;
  /** A streamed range of the object, or undefined when there is no object under that key. */
  readRange(key: string, range: ByteRange): Promise<ReadableStream<Uint8Array> | undefined>;
  /**
   * Throws when the store cannot be reached or refuses this process's credentials. Writes no
   * object: readiness checks call it, and a write on Vercel Blob is a billed operation.
   */
  checkAvailable(): Promise<void>;
  /** Keys of the objects directly under `folder` (e.g. "pending/"), sorted. */
  list(folder: string): Promise<string[]>;
  /** Removes the object; no error when there is none. */
  delete(key: string): Promise<void>;
}
