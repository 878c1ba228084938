import { randomUUID } from "node:crypto";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { processPart } from "../process-parts";
import { getObjectStore, type ObjectStore } from "../storage/get-object-store";

/**
 * Payloads archived in object storage but not yet recorded in the database (it was down when they
 * arrived). Each is a marker object `pending/<arrival>_<random>_<payload key, base64url>`: the key
 * alone says when it arrived and which payload to ingest, so listing the folder in key order is
 * the arrival order, and no marker has to be read. The database is not involved: it is the thing
 * that is down.
 */
export const PENDING_FOLDER = "pending/";

export interface PendingMarker {
  key: string;
  payloadKey: string;
  arrivedAt: Date;
}

/** Milliseconds since the epoch, zero-padded so that key order is time order. */
const ARRIVAL_DIGITS = 15;

export function pendingMarkerKey(payloadKey: string, arrivedAt = new Date()): string {
  const arrival = String(arrivedAt.getTime()).padStart(ARRIVAL_DIGITS, "0");
  const tiebreak = randomUUID().slice(0, 8);
  return `${PENDING_FOLDER}${arrival}_${tiebreak}_${Buffer.from(payloadKey).toString("base64url")}`;
}

export function parsePendingMarker(key: string): PendingMarker | undefined {
  const match = new RegExp(`^${PENDING_FOLDER}(\\d{${ARRIVAL_DIGITS}})_[0-9a-f]{8}_([A-Za-z0-9_-]+)$`).exec(key);
  if (!match) return undefined;
  return { key, payloadKey: Buffer.from(match[2], "base64url").toString("utf8"), arrivedAt: new Date(Number(match[1])) };
}

// One set per process: the webhook route writes markers, and the reconciler started by
// instrumentation.ts must hear of them (Next.js bundles each separately).
function listeners(): Set<() => void> {
  return processPart("pending payload listeners", () => new Set<() => void>());
}

/** Called whenever this process defers a payload (the reconciler then retries often). */
export function onPendingAdded(listener: () => void): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Records that the payload under `payloadKey` awaits the database. */
export async function markPending(payloadKey: string, store: ObjectStore = getObjectStore()): Promise<PendingMarker> {
  const key = pendingMarkerKey(payloadKey);
  try {
    await store.put(key, JSON.stringify({ payloadKey }), "application/json");
  } catch (error) {
    throw new DomainError("STORAGE_ERROR", "The payload could not be stored", { cause: error });
  }
  for (const listener of listeners()) listener();
  return parsePendingMarker(key)!;
}

/** Pending payloads, oldest arrival first. */
export async function listPending(store: ObjectStore = getObjectStore()): Promise<PendingMarker[]> {
  const markers: PendingMarker[] = [];
  for (const key of await store.list(PENDING_FOLDER)) {
    const marker = parsePendingMarker(key);
    if (marker) markers.push(marker);
    else log.warn({ key }, "unrecognised object in the pending folder left alone");
  }
  return markers;
}

/** How many payloads await the database (health, the dashboard's banner). */
export async function countPending(store: ObjectStore = getObjectStore()): Promise<number> {
  return (await listPending(store)).length;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return error instanceof DomainError && (error.code === "DATABASE_ERROR" || error.code === "DATABASE_BUSY");
}

export interface Deferred {
  kind: "pending";
  payloadKey: string;
}

/**
 * Runs the database step of intake for a payload already archived under `payloadKey`. When the
 * database cannot be reached, the payload is marked pending instead and the delivery succeeds:
 * the reconciler records it once the database is back. Any other failure is the caller's.
 */
export async function recordOrDefer<T>(payloadKey: string, record: () => Promise<T>): Promise<T | Deferred> {
  try {
    return await record();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    await markPending(payloadKey);
    // One short line per deferred payload: an outage defers thousands, each with the same cause.
    const cause = (error as Error).cause ?? error;
    const reason = (cause instanceof Error ? cause.message : String(cause)).trim().split("\n").at(-1);
    log.warn({ payloadKey, reason }, "database unavailable: payload kept, recording deferred");
    return { kind: "pending", payloadKey };
  }
}
