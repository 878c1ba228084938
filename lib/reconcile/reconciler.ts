import { type DatabaseKind, type Db, getDatabaseKind, getDb } from "../db/client";
import { DomainError } from "../domain-error";
import { type ArchivedEvent, firstOfEachConversation, readArchived, recordArchived } from "../intake/receive";
import { isDatabaseUnavailable, listPending, type PendingMarker } from "../intake/pending";
import { log } from "../log";
import { processPart } from "../process-parts";
import { getObjectStore, type ObjectStore } from "../storage/get-object-store";

/**
 * Records pending payloads (lib/intake/pending.ts) once the database answers again: in arrival
 * order, through the stages a live delivery goes through (lib/intake/record-archived.ts), so a payload also
 * redelivered live, or recorded twice after a crash, is still one record; by one instance at a time.
 */
export interface ReconcileOptions {
  /** The database to take the lock on; the process-wide one by default. */
  db?: Db;
  kind?: DatabaseKind;
  store?: ObjectStore;
  /** Payloads recorded per transaction (RECONCILE_BATCH by default). */
  batchSize?: number;
}

export interface ReconcileResult {
  /** false: another instance holds the lock and is draining. */
  ran: boolean;
  recorded: number;
  /** Markers still pending after the pass (the database failed again, or a payload is missing). */
  remaining: number;
}

/**
 * Payloads per batch: long enough to share a commit among many calls, short enough that live
 * webhooks waiting on the change feed's lock behind a batch wait a fraction of a second.
 */
const RECONCILE_BATCH = 100;

/** Key of the PostgreSQL advisory lock that one reconciler holds across instances. */
const LOCK_NAME = "mayday:reconcile-pending";

/** Ends a pass early: the database stopped answering. */
class DatabaseGone extends Error {}

// PGlite is one process's database (its directory lock): an in-process flag, shared by every
// route bundle, excludes like the advisory lock would.
const embeddedLock = () => processPart("reconcile lock", () => ({ running: false }));

async function withReconcileLock<T>(db: Db, kind: DatabaseKind, work: () => Promise<T>): Promise<T | undefined> {
  if (kind === "pglite") {
    const lock = embeddedLock();
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
 * recorded once), then payloads in batches of at most `size`, in arrival order, with at most one
 * payload of a conversation per batch: a conversation's later payloads go to later batches, which
 * are recorded after it, so each conversation's payloads are recorded in the order they arrived.
 */
function batches(markers: PendingMarker[], size: number): PendingMarker[][][] {
  const byPayload = new Map<string, PendingMarker[]>();
  for (const marker of markers) {
    const group = byPayload.get(marker.payloadKey);
    if (group) group.push(marker);
    else byPayload.set(marker.payloadKey, [marker]);
  }
  const result: PendingMarker[][][] = [];
  let waiting = [...byPayload.values()];
  while (waiting.length > 0) {
    const { batch, rest } = firstOfEachConversation(waiting, size, (group) => conversationOf(group[0].payloadKey));
    result.push(batch);
    waiting = rest;
  }
  return result;
}

/**
 * An error of recording a payload: the database stopped answering ends the pass; a store that
 * failed (a recording not written) is worth another pass and ends this one too; anything else (not
 * geocoded, or content no longer accepted) cannot be helped by retrying, and the payload stays
 * archived under its key: logged, and its marker removed.
 */
function settleFailure(payloadKey: string, error: unknown): void {
  if (isDatabaseUnavailable(error)) throw new DatabaseGone();
  if (!(error instanceof DomainError) || error.code === "STORAGE_ERROR") throw error;
  log.error({ payloadKey, code: error.code, err: error }, "pending payload could not be fully recorded; marker removed");
}

/**
 * Records one batch and removes its payloads' markers; answers how many payloads it recorded. The
 * batch's calls go to the database in one statement: one commit, one turn at the change feed's
 * lock and one run of the calls' triggers for the whole batch instead of one per call, which is
 * what bounds the drain rate.
 */
async function recordBatch(batch: PendingMarker[][], store: ObjectStore): Promise<number> {
  const raws = await Promise.all(batch.map((group) => store.get(group[0].payloadKey)));
  const events: ArchivedEvent[] = [];
  const done: PendingMarker[][] = [];
  for (const [index, group] of batch.entries()) {
    const { payloadKey } = group[0];
    const raw = raws[index];
    if (raw === undefined) {
      // Markers are written after their payload: this can only be an object removed by hand.
      log.error({ payloadKey }, "pending payload missing from object storage; marker kept");
      continue;
    }
    done.push(group);
    try {
      events.push({ parsed: readArchived(payloadKey, raw), payloadKey });
    } catch (error) {
      settleFailure(payloadKey, error);
    }
  }
  for (const [index, outcome] of (await recordArchived(events)).entries()) {
    const { payloadKey } = events[index];
    if (outcome.status === "rejected") settleFailure(payloadKey, outcome.reason);
    else if (outcome.value.kind === "stored_unlocated") {
      log.error({ payloadKey, err: outcome.value.cause }, "pending call recorded without coordinates: the geocoder failed");
    }
  }
  await Promise.all(done.flat().map((marker) => store.delete(marker.key)));
  return done.length;
}

/** One pass over the pending folder. Cheap when it is empty: the database is not touched. */
export async function reconcilePending(options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const store = options.store ?? getObjectStore();
  if ((await listPending(store)).length === 0) return { ran: true, recorded: 0, remaining: 0 };
  const db = options.db ?? (await getDb());
  const kind = options.kind ?? (await getDatabaseKind());

  const outcome = await withReconcileLock(db, kind, async () => {
    // Listed again under the lock: another instance may have drained some meanwhile.
    let recorded = 0;
    try {
      for (const batch of batches(await listPending(store), options.batchSize ?? RECONCILE_BATCH)) {
        recorded += await recordBatch(batch, store);
      }
    } catch (error) {
      if (!(error instanceof DatabaseGone)) throw error;
      log.warn({ recorded }, "database unavailable again: reconciliation paused");
    }
    return recorded;
  });
  const remaining = (await listPending(store)).length;
  if (outcome === undefined) return { ran: false, recorded: 0, remaining };
  if (outcome > 0) log.info({ recorded: outcome, remaining }, "pending payloads recorded");
  return { ran: true, recorded: outcome, remaining };
}
