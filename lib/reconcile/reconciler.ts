import { bumpCallsVersion } from "../calls/cache";
import { type DatabaseKind, type Db, getDatabaseKind, getDb } from "../db/client";
import { DomainError } from "../domain-error";
import { ingestPayload } from "../intake";
import { log } from "../log";
import { getObjectStore, type ObjectStore } from "../storage";
import { isDatabaseUnavailable, listPending, type PendingMarker } from "./pending";

/**
 * Records pending payloads (lib/reconcile/pending.ts) once the database answers again: in arrival
 * order, idempotently (the same upsert as a live delivery, so a payload also redelivered live, or
 * ingested twice after a crash, is still one record), and by one instance at a time.
 */
export interface ReconcileOptions {
  /** The database to take the lock on; the process-wide one by default. */
  db?: Db;
  kind?: DatabaseKind;
  store?: ObjectStore;
  /** Conversations recorded at once (each payload is a few statements; the pool has 10 connections). */
  concurrency?: number;
}

export interface ReconcileResult {
  /** false: another instance holds the lock and is draining. */
  ran: boolean;
  recorded: number;
  /** Markers still pending after the pass (the database failed again, or a payload is missing). */
  remaining: number;
}

/** Key of the PostgreSQL advisory lock that one reconciler holds across instances. */
const LOCK_NAME = "mayday:reconcile-pending";

/** Ends a pass early: the database stopped answering. */
class DatabaseGone extends Error {}

// PGlite is one process's database (its directory lock): an in-process flag excludes like the
// advisory lock would. On globalThis so that every route bundle shares it.
const flags = globalThis as typeof globalThis & { [key: symbol]: { running: boolean } | undefined };
const PGLITE_LOCK = Symbol.for("mayday.reconcile.pglite-lock");

async function withReconcileLock<T>(db: Db, kind: DatabaseKind, work: () => Promise<T>): Promise<T | undefined> {
  if (kind === "pglite") {
    flags[PGLITE_LOCK] ??= { running: false };
    const lock = flags[PGLITE_LOCK];
    if (lock.running) return undefined;
    lock.running = true;
    try {
      return await work();
    } finally {
      lock.running = false;
    }
  }
  // A transaction-scoped lock: released by the server when the transaction ends or its connection
  // dies, so a crashed instance never leaves it held. The work itself runs on other connections.
  return db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(hashtext(${LOCK_NAME})) AS locked`;
      return locked ? work() : undefined;
    },
    { maxWait: 5_000, timeout: 30 * 60_000 },
  );
}

/** The conversation a payload key belongs to (`calls/<id>/...`); other keys stand alone. */
function conversationOf(payloadKey: string): string {
  const [folder, id] = payloadKey.split("/");
  return folder === "calls" && id ? id : payloadKey;
}

/**
 * Markers grouped by payload (a payload redelivered during the outage has several markers and is
 * recorded once), and payloads by conversation, both in arrival order: conversations are recorded
 * concurrently, each one's payloads one after another, in the order they arrived.
 */
function byConversation(markers: PendingMarker[]): PendingMarker[][][] {
  const byPayload = new Map<string, PendingMarker[]>();
  for (const marker of markers) {
    const group = byPayload.get(marker.payloadKey);
    if (group) group.push(marker);
    else byPayload.set(marker.payloadKey, [marker]);
  }
  const conversations = new Map<string, PendingMarker[][]>();
  for (const group of byPayload.values()) {
    const conversation = conversationOf(group[0].payloadKey);
    const payloads = conversations.get(conversation);
    if (payloads) payloads.push(group);
    else conversations.set(conversation, [group]);
  }
  return [...conversations.values()];
}

/** Records one payload and removes its markers; false when it must stay pending. */
async function recordOne(group: PendingMarker[], store: ObjectStore, onChanged: () => void): Promise<boolean> {
  const { payloadKey } = group[0];
  const raw = await store.get(payloadKey);
  if (raw === undefined) {
    // Markers are written after their payload: this can only be an object removed by hand.
    log.error({ payloadKey }, "pending payload missing from object storage; marker kept");
    return false;
  }
  try {
    await ingestPayload(raw, payloadKey, { onCallsChanged: onChanged });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new DatabaseGone();
    // A store that failed (a recording not written) is worth another pass; the error ends this one.
    if (!(error instanceof DomainError) || error.code === "STORAGE_ERROR") throw error;
    // Recorded, but not geocoded, or content no longer accepted: retrying cannot help, and the
    // payload stays archived under its key.
    const code = error.code;
    log.error({ payloadKey, code, err: error }, "pending payload could not be fully recorded; marker removed");
  }
  for (const marker of group) await store.delete(marker.key);
  return true;
}

/** One pass over the pending folder. Cheap when it is empty: the database is not touched. */
export async function reconcilePending(options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const store = options.store ?? getObjectStore();
  if ((await listPending(store)).length === 0) return { ran: true, recorded: 0, remaining: 0 };
  const db = options.db ?? (await getDb());
  const kind = options.kind ?? (await getDatabaseKind());
  const concurrency = options.concurrency ?? 8;

  const outcome = await withReconcileLock(db, kind, async () => {
    // Listed again under the lock: another instance may have drained some meanwhile.
    const conversations = byConversation(await listPending(store));
    let recorded = 0;
    let changed = false;
    let gone = false;
    let next = 0;
    // A pool of workers rather than batches: one slow payload does not hold up the others.
    const worker = async () => {
      while (!gone && next < conversations.length) {
        for (const group of conversations[next++]) {
          if (gone) return;
          try {
            if (await recordOne(group, store, () => (changed = true))) recorded++;
          } catch (error) {
            if (!(error instanceof DatabaseGone)) throw error;
            gone = true;
          }
        }
      }
    };
    // Every worker settles before the bump and before the lock is released.
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, conversations.length) }, worker));
    // One version bump per pass rather than per payload.
    if (changed) await bumpCallsVersion();
    const failure = outcomes.find((outcome) => outcome.status === "rejected");
    if (failure) throw failure.reason;
    if (gone) log.warn({ recorded }, "database unavailable again: reconciliation paused");
    return recorded;
  });
  const remaining = (await listPending(store)).length;
  if (outcome === undefined) return { ran: false, recorded: 0, remaining };
  if (outcome > 0) log.info({ recorded: outcome, remaining }, "pending payloads recorded");
  return { ran: true, recorded: outcome, remaining };
}
