import path from "node:path";
import { getConfig } from "../config";
import { processPart, replacePart } from "../process-parts";
import { LocalObjectStore } from "./local";
import type { ObjectStore } from "./object-store";
import { VercelBlobObjectStore } from "./vercel-blob";

export type { ByteRange, ObjectBody, ObjectStore } from "./object-store";

const STORE_PART = "object store";

export function getObjectStore(): ObjectStore {
  return processPart<ObjectStore>(STORE_PART, () => {
    const config = getConfig();
    return config.BLOB_READ_WRITE_TOKEN
      ? new VercelBlobObjectStore(config.BLOB_READ_WRITE_TOKEN)
      : new LocalObjectStore(config.BLOB_DIR ?? path.join(config.DATA_DIR, "blobs"));
  });
}

/** Tests swap the store (e.g. for one that fails). */
export function setObjectStoreForTests(replacement: ObjectStore | undefined): void {
  replacePart(STORE_PART, replacement);
}
