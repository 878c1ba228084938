import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";
import { lockChangeFeed } from "./lock";
import { inTurn } from "./turns";

/**
 * The transaction of a writer of the feed's rows (calls, notes, acknowledgements, units): it waits
 * for its turn (turns.ts) and takes the feed's lock (lock.ts) before it touches a row, so change
 * numbers commit in order and every writer keeps the one lock order (the feed's lock, then rows).
 */

/** What a feed writer's transaction reads and writes with. */
export type FeedTx = Pick<Db, "$queryRaw" | "$executeRaw">;

export interface FeedTransactionOptions {
  /** The database (a second instance's in tests); the process-wide one, its failures as DATABASE_ERROR, by default. */
  db?: Db;
  /** The transaction's time limit in milliseconds. */
  timeout?: number;
}

/**
 * Runs `work` in one transaction when its turn comes, with `lockFeed` to take the feed's lock
 * (once) before its first write or row lock: a transaction that ends up writing nothing never
 * takes it.
 */
export function inFeedTransaction<T>(
  work: (tx: FeedTx, lockFeed: () => Promise<void>) => Promise<T>,
  { db, timeout }: FeedTransactionOptions = {},
): Promise<T> {
  const run = (database: Db) =>
    database.$transaction(
      async (tx) => {
        let locked = false;
        const lockFeed = async () => {
          if (!locked) await lockChangeFeed(tx);
          locked = true;
        };
        return work(tx, lockFeed);
      },
      timeout === undefined ? undefined : { timeout },
    );
  return inTurn(() => (db ? run(db) : withDatabase(run)));
}

/** Runs `work` in one transaction when its turn comes, the feed's lock taken first. */
export function withFeedLock<T>(work: (tx: FeedTx) => Promise<T>): Promise<T> {
  return inFeedTransaction(async (tx, lockFeed) => {
    await lockFeed();
    return work(tx);
  });
}
