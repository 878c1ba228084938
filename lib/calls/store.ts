import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";

/** Call-store work, its database failures answered as DATABASE_ERROR (lib/db/with-database.ts). */
export const withCallStore = withDatabase;

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
