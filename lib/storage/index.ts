import path from "node:path";
import { getConfig } from "../config";
import { LocalObjectStore } from "./local";
import { VercelBlobObjectStore } from "./vercel-blob";

/** Where full webhook payloads are archived. Keys look like `calls/<id>/<id>_<date>_<time>.json`. */
export interface ObjectStore {
  readonly kind: string;
  put(key: string, body: string, contentType: string): Promise<void>;
  /** The stored bytes, or undefined when there is no object under that key. */
  get(key: string): Promise<Buffer | undefined>;
  /** Throws when the store cannot take writes right now. */
  checkWritable(): Promise<void>;
  /** Keys of the objects directly under `folder` (e.g. "pending/"), sorted. */
  list(folder: string): Promise<string[]>;
  /** Removes the object; no error when there is none. */
  delete(key: string): Promise<void>;
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
