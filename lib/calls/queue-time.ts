/**
 * Whether a platform's time of a call is implausible (docs/dashboard.md, "Times"): before 2000,
 * more than a day before Mayday received the call, or more than 5 minutes after. The time is kept
 * as sent, but the queue orders and ages the call by its receipt; the pages say so. The same rule
 * as prisma/functions/call_queue_time.sql (tests/unit/sql-functions.test.ts holds them equal).
 */
export const PLAUSIBLE_FROM_MS = Date.UTC(2000, 0, 1);
export const PLAUSIBLE_BEFORE_RECEIPT_MS = 24 * 3600_000;
export const PLAUSIBLE_AFTER_RECEIPT_MS = 5 * 60_000;

export function implausibleTime(occurredMs: number, receivedMs: number): boolean {
  return occurredMs < PLAUSIBLE_FROM_MS || occurredMs < receivedMs - PLAUSIBLE_BEFORE_RECEIPT_MS || occurredMs > receivedMs + PLAUSIBLE_AFTER_RECEIPT_MS;
}
