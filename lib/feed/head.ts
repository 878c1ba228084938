import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { FeedPosition } from "./position";

/**
 * The tables whose rows take numbers from the feed's sequence (their `change_number`;
 * tests/unit/sql-functions.test.ts holds this list to the schema's). Incidents, incident merges,
 * unit state changes and assignments are numbered for outbound events only: they count in the
 * head, not in the feed's pages (lib/board/feed-pages.ts).
 */
export const FEED_TABLES = [
  "calls", "incident_notes", "incident_acknowledgements", "incident_duplicates", "incidents", "incident_merges",
  "units", "unit_state_changes", "unit_assignments", "response_plans",
] as const;

/** The feed's head as SQL: the newest position any row took (0 before any). */
export const feedHead = Prisma.sql`GREATEST(${Prisma.join(
  FEED_TABLES.map((table) => Prisma.raw(`(SELECT COALESCE(max(change_number), 0) FROM ${table})`)),
)})`;

/** The newest committed position (0 before any change): every change up to it is readable. */
export async function readFeedHead(db: Pick<Db, "$queryRaw">): Promise<FeedPosition> {
  // One round trip: the board and the listing cache read it on every request.
  const [{ head }] = await db.$queryRaw<{ head: bigint }[]>(Prisma.sql`SELECT ${feedHead}::bigint AS head`);
  return Number(head);
}
