import type { Db } from "../db/client";
import type { Subscription } from "../db/generated/client";
import { uuid7 } from "../db/uuid7";
import { eventBody } from "./body";
import { type DerivedEvent, readWindow } from "./events";
import type { SubscriptionLocks } from "./lock";
import { type RetryPolicy, retryDelayMs } from "./retry";
import type { BodyFormat } from "./event-types";
import { type SendOutcome, sendEvent } from "./send";
import { signingSecrets, wants } from "./subscription-row";

/**
 * Serves one subscription: under its lock, reads the window of changes after its cursor, sends
 * each event it wants in order, one at a time, and moves the cursor past the window once all of
 * its events are delivered (the ids delivered meanwhile are kept in cursor_sent, so a retry
 * never sends one twice). The first failure stops it: the attempt is
 * logged, the next one scheduled (lib/subscriptions/retry.ts) and the cursor stays. Every update of
 * the row is conditional on the cursor it read, so a replay that moved the cursor meanwhile wins.
 */

/** Changes read per window (lib/subscriptions/events.ts). */
const WINDOW = 100;

export interface ServeOptions {
  retry: RetryPolicy;
  now?: () => Date;
}

async function logAttempt(db: Db, row: Subscription, event: DerivedEvent, outcome: SendOutcome): Promise<void> {
  await db.$executeRaw`
    INSERT INTO subscription_deliveries (id, subscription_id, event_id, event_type, change, attempt, status, latency_ms, error)
    VALUES (${uuid7()}, ${row.id}, ${event.id}, ${event.type}, ${event.change}, ${row.attempt + 1}, ${outcome.status},
      ${outcome.latencyMs}, ${outcome.error})`;
}

async function markFailure(db: Db, row: Subscription, outcome: SendOutcome, options: ServeOptions, now: Date): Promise<void> {
  const failures = row.attempt + 1;
  const failingSince = row.failingSince ?? now;
  const failing = now.getTime() - failingSince.getTime() >= options.retry.windowMs;
  const next = new Date(now.getTime() + retryDelayMs(failures, options.retry));
  await db.$executeRaw`
    UPDATE subscriptions SET attempt = ${failures}, failing_since = ${failingSince}, next_attempt_at = ${next},
      last_error = ${outcome.error}, health = ${failing ? "failing" : row.health}, updated_at = now()
    WHERE id = ${row.id} AND cursor = ${row.cursor}`;
}

/** Answers how many events it delivered; 0 also when another instance holds the subscription. */
export async function serveSubscription(db: Db, locks: SubscriptionLocks, id: string, options: ServeOptions): Promise<number> {
  if (!(await locks.tryLock(id))) return 0;
  const clock = options.now ?? (() => new Date());
  let delivered = 0;
  try {
    for (;;) {
      let row = await db.subscription.findUnique({ where: { id } });
      if (!row || !row.enabled || (row.nextAttemptAt && row.nextAttemptAt > clock())) return delivered;
      const { events, upTo } = await readWindow(db, Number(row.cursor), WINDOW);
      if (upTo === Number(row.cursor)) return delivered;
      const sent = new Set(row.cursorSent);
      for (const event of events) {
        if (!wants(row, event) || sent.has(event.id)) continue;
        if (!locks.holds(id)) return delivered;
        const now = clock();
        const body = await eventBody(db, row.bodyFormat as BodyFormat, event);
        const outcome = await sendEvent(row.url, signingSecrets(row, now), { id: event.id, type: event.type, timestamp: now, body });
        await logAttempt(db, row, event, outcome);
        if (!outcome.ok) {
          await markFailure(db, row, outcome, options, clock());
          return delivered;
        }
        delivered += 1;
        sent.add(event.id);
        // Paused or pointed elsewhere meanwhile: stop after this event (it is recorded as sent).
        const [kept] = await db.$queryRaw<{ enabled: boolean; url: string }[]>`
          UPDATE subscriptions SET cursor_sent = array_append(cursor_sent, ${event.id}), attempt = 0, failing_since = NULL,
            next_attempt_at = NULL, last_error = NULL, health = 'ok', last_delivery_at = now()
          WHERE id = ${id} AND cursor = ${row.cursor}
          RETURNING enabled, url`;
        if (!kept || !kept.enabled || kept.url !== row.url) return delivered;
        row = { ...row, attempt: 0, failingSince: null, health: "ok" };
      }
      const advanced = await db.$executeRaw`
        UPDATE subscriptions SET cursor = ${upTo}, cursor_sent = '{}' WHERE id = ${id} AND cursor = ${row.cursor}`;
      if (advanced === 0) return delivered;
    }
  } finally {
    await locks.unlock(id);
  }
}
