import { type Db, getDb } from "../db/client";
import { databaseError, DomainError } from "../domain-error";

/**
 * Runs call-store work; any failure of the store itself (server down, timeout, bad connection)
 * becomes 500 DATABASE_ERROR with the cause kept for the log, never shown to the caller.
 */
export async function withCallStore<T>(work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await work(await getDb());
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw databaseError(error);
  }
}

/**
 * The change feed's advisory lock (migration live_change_feed, docs/dashboard.md): every statement
 * that writes calls takes it before touching a row, and keeps it until commit, so change numbers
 * commit in order.
 */
export const CHANGE_FEED_LOCK = 7243001001;

/**
 * For a transaction that locks calls before writing them (SELECT ... FOR UPDATE): taking the feed
 * lock first keeps the one lock order of every writer (feed lock, then rows).
 */
export async function lockChangeFeed(tx: Pick<Db, "$executeRaw">): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CHANGE_FEED_LOCK}::bigint)`;
}
