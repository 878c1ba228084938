import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import { withDatabase } from "../db/with-database";
import { OPEN_STATUSES } from "../calls/workflow";
import type { QueuePage } from "./schema";
import { andShown, type ExerciseVisibility } from "./exercise-visibility";

/**
 * The queue: open calls by urgency (critical, high, then moderate and any other severity), the
 * longest-waiting first within a severity (ties: the larger id first), read by keyset so the
 * oldest open critical call is the first row however many calls are stored. One branch per
 * (severity rank, open status) reads its index (severity or status, occurred_at DESC, id)
 * backwards and stops after a page; the database merges the branches.
 */

const RANKED = [
  { rank: 0, condition: Prisma.sql`severity = 'critical'` },
  { rank: 1, condition: Prisma.sql`severity = 'high'` },
  { rank: 2, condition: Prisma.sql`severity NOT IN ('critical', 'high')` },
] as const;

interface QueueKey { rank: number; occurredMs: number; id: string }

export function encodeQueueKey(key: QueueKey): string {
  return `${key.rank}.${key.occurredMs}.${key.id}`;
}

export function decodeQueueKey(text: string): QueueKey {
  const [rank, occurredMs, ...id] = text.split(".");
  return { rank: Number(rank), occurredMs: Number(occurredMs), id: id.join(".") };
}

type QueueRow = ListedCall & { rank: number };

export async function readQueueFrom(
  db: Db,
  after: string | undefined,
  limit: number,
  visibility: ExerciseVisibility = "show",
): Promise<QueuePage> {
  const visible = andShown(visibility);
  const key = after === undefined ? undefined : decodeQueueKey(after);
  const branches: Prisma.Sql[] = [];
  for (const { rank, condition } of RANKED) {
    if (key && rank < key.rank) continue;
    const keyset =
      key && rank === key.rank
        ? Prisma.sql`AND (occurred_at > ${new Date(key.occurredMs)} OR (occurred_at = ${new Date(key.occurredMs)} AND id < ${key.id}))`
        : Prisma.empty;
    for (const status of OPEN_STATUSES) {
      branches.push(Prisma.sql`(
        SELECT id, ${rank}::int AS rank, occurred_at FROM calls
        WHERE status = ${status} AND ${condition} ${keyset}${visible}
        ORDER BY occurred_at ASC, id DESC
        LIMIT ${limit + 1})`);
    }
  }
  const rows = await db.$queryRaw<QueueRow[]>(Prisma.sql`
    SELECT ${selectList}, page.rank AS rank
    FROM (
      SELECT * FROM (${Prisma.join(branches, " UNION ALL ")}) AS branches
      ORDER BY rank, occurred_at ASC, id DESC
      LIMIT ${limit + 1}
    ) AS page
    JOIN calls c USING (id)
    ORDER BY page.rank, c.occurred_at ASC, c.id DESC`);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    calls: shown.map(toCallRecord),
    next: rows.length > limit && last ? encodeQueueKey({ rank: last.rank, occurredMs: last.occurredAt.getTime(), id: last.id }) : null,
  };
}

/** GET /api/live/queue. */
export function readQueue(after: string | undefined, limit: number, visibility: ExerciseVisibility): Promise<QueuePage> {
  return withDatabase((db) => readQueueFrom(db, after, limit, visibility));
}
