/**
 * Where full webhook payloads are archived. Keys look like `calls/<id>/<id>_<date>_<time>.json`.
 * The interface lives apart from its implementations (local.ts, vercel-blob.ts) and from the
 * factory (index.ts) that picks one, so none of them imports another's module.
 */
export interface ObjectStore {
  readonly kind: string;
  put(key: string, body: string, contentType: string): Promise<void>;
  /** The stored bytes, or undefined when there is no object under that key. */
  get(key: string): Promise<Buffer | undefined>;
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
