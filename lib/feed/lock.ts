import type { Db } from "../db/client";

/**
 * The change feed's advisory lock (migration live_change_feed, docs/dashboard.md): every statement
 * that writes calls takes it before touching a row (the calls_change_lock trigger), and keeps it
 * until commit, so change numbers commit in order. prisma/functions/incident_for_call.sql takes it too.
 */
export const CHANGE_FEED_LOCK = 7243001001;

/**
 * For a transaction that locks rows before it writes calls (SELECT ... FOR UPDATE): taking the
 * feed lock first keeps the one lock order of every writer (feed lock, then rows).
 */
export async function lockChangeFeed(tx: Pick<Db, "$executeRaw">): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CHANGE_FEED_LOCK}::bigint)`;
}
