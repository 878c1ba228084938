import path from "node:path";
import type { Readable } from "node:stream";
import { getConfig } from "../config";
import { LocalObjectStore } from "./local";
import { VercelBlobObjectStore } from "./vercel-blob";

/** What may be stored: a stream is copied chunk by chunk, never held whole. */
export type ObjectBody = string | Buffer | Readable;

/** Bytes `start` to `end` of an object, both inclusive (an HTTP range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where full webhook payloads and recordings are archived. Keys look like
 * `calls/<id>/<id>_<date>_<time>.json` and `calls/<id>/<id>_recording.mp3`.
 */
export interface ObjectStore {
  readonly kind: string;
  put(key: string, body: ObjectBody, contentType: string): Promise<void>;
  /** The stored bytes, or undefined when there is no object under that key. */
  get(key: string): Promise<Buffer | undefined>;
  /** A streamed range of the object, or undefined when there is no object under that key. */
  readRange(key: string, range: ByteRange): Promise<ReadableStream<Uint8Array> | undefined>;
  /** Throws when the store cannot take writes right now. */
  checkWritable(): Promise<void>;
}

let store: ObjectStore | undefined;

export function getObjectStore(): ObjectStore {
  if (!store) {
    const config = getConfig();
    store = config.BLOB_READ_WRITE_TOKEN
      ? new VercelBlobObjectStore(config.BLOB_READ_WRITE_TOKEN)
      : new LocalObjectStore(config.BLOB_DIR ?? path.join(config.DATA_DIR, "blobs"));
  }
  return store;
}

/** Tests swap the store (e.g. for one that fails). */
export function setObjectStoreForTests(replacement: ObjectStore | undefined): void {
  store = replacement;
}
