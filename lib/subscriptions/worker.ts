import { getConfig } from "../config";
import { type Db, getDb } from "../db/client";
import { feedHead } from "../feed";
import { getChangeTail } from "../board/change-tail";
import { log } from "../log";
import { createSubscriptionLocks } from "./lock";
import { RETRY_POLICY, type RetryPolicy } from "./retry";
import { serveSubscription } from "./serve";

/**
 * The delivery worker, one per instance (instrumentation.ts): after each commit that changes calls
 * (the process's change feed reader, lib/board/change-tail.ts, woken by NOTIFY) and on a short timer (retries
 * falling due, missed notifications), it looks for subscriptions with events to send and serves each
 * one that no other instance holds (lib/subscriptions/serve.ts), every subscription on its own, so
 * a slow receiver delays only its own events. It reads committed changes only and runs outside any
 * request: intake never waits for it. It also prunes the delivery log past its retention.
 */

const POLL_MS = 1_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface DeliveryWorkerOptions {
  /** The database (a second instance in tests); the process's client unless given. */
  db?: Db;
  retry?: RetryPolicy;
  pollMs?: number;
}

export interface DeliveryWorker {
  /** Looks for work now (tests; the worker also does on every change and every pollMs). */
  kick(): void;
  /** Resolves once every subscription this worker is serving is idle. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Subscriptions with a change after their cursor whose next attempt (if any) is due. */
async function dueSubscriptions(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM subscriptions s
    WHERE s.enabled AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= now())
      AND s.cursor < ${feedHead}`;
  return rows.map((row) => row.id);
}

async function pruneLog(db: Db): Promise<void> {
  const days = getConfig().SUBSCRIPTION_DELIVERY_LOG_DAYS;
  await db.$executeRaw`DELETE FROM subscription_deliveries WHERE at < now() - make_interval(days => ${days}::int)`;
}

export function startDeliveryWorker(options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const retry = options.retry ?? RETRY_POLICY;
  const locks = createSubscriptionLocks(getConfig().DATABASE_URL);
  const serving = new Map<string, Promise<void>>();
  const abort = new AbortController();
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  let failing = false;
  let prunedAt = 0;

  const look = (): void => {
    if (abort.signal.aborted) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = (async () => {
      const db = options.db ?? (await getDb());
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await pruneLog(db);
      }
      for (const id of await dueSubscriptions(db)) {
        if (serving.has(id) || abort.signal.aborted) continue;
        const run = serveSubscription(db, locks, id, { retry })
          .then((delivered) => {
            // More may have committed while it sent; nothing sent (held elsewhere, or failed): the timer looks again.
            if (delivered > 0) lookAgain = true;
          })
          .catch((error: unknown) => log.warn({ err: error, subscription: id }, "subscription delivery failed"))
          .finally(() => {
            serving.delete(id);
            if (lookAgain && !looking) {
              lookAgain = false;
              look();
            }
          });
        serving.set(id, run);
      }
      if (failing) log.info("subscription deliveries look for work again");
      failing = false;
    })()
      .catch((error: unknown) => {
        if (!failing) log.error({ err: error }, "subscription worker could not look for work; retrying");
        failing = true;
      })
      .finally(() => {
        looking = undefined;
        if (lookAgain) {
          lookAgain = false;
          look();
        }
      });
  };

  const tail = getChangeTail();
  void (async () => {
    try {
      await tail.start();
    } catch (error) {
      log.warn({ err: error }, "subscription worker follows the feed on its timer only");
    }
    while (!abort.signal.aborted) {
      const mark = tail.mark;
      look();
      await tail.changedSince(mark, abort.signal);
    }
  })();
  const timer = setInterval(look, options.pollMs ?? POLL_MS);
  timer.unref();

  const idle = async () => {
    for (;;) {
      await looking;
      if (serving.size === 0 && !looking) return;
      await Promise.all(serving.values());
    }
  };

  return {
    kick: look,
    idle,
    async stop() {
      abort.abort();
      clearInterval(timer);
      await idle();
      await locks.close();
    },
  };
}
