import path from "node:path";
import { getConfig } from "../config";
import { LocalObjectStore } from "./local";
import type { ObjectStore } from "./object-store";
import { VercelBlobObjectStore } from "./vercel-blob";

export type { ByteRange, ObjectBody, ObjectStore } from "./object-store";

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
