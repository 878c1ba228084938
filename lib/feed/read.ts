import type { Db } from "../db/client";
import type { FeedPosition } from "./position";

/**
 * The change feed: every insert and update of a row it numbers takes the next position, under one
 * transaction-level advisory lock (migration live_change_feed; lock.ts CHANGE_FEED_LOCK), so
 * committed positions always form a prefix: a reader that has seen every change up to n can never
 * be passed by a late commit of a position below n. Each row holds only its latest position, so
 * "rows with a position above n, in order" is a gapless, resumable feed in which each row appears
 * once, at its latest state. Calls, incident notes (migration incident_notes), acknowledgements of
 * incidents' alerts (migration incident_acknowledgements), possible duplicates at their mark and
 * their dismissal (migration possible_duplicates), units at their latest state (migration units)
 * and response plans as last set (migration response_plans_roads) are the feed's pages, merged in position order; the other tables of head.ts are numbered for
 * outbound events only.
 */

/** One kind of row in the feed's pages: those after `after`, in position order, at most `limit`. */
export type FeedSource<C extends { change: FeedPosition }> = (db: Pick<Db, "$queryRaw">, after: FeedPosition, limit: number) => Promise<C[]>;

export interface FeedPage<C> {
  changes: C[];
  /** The last position of the page, or `after` when it is empty: the next page's `after`. */
  cursor: FeedPosition;
  has_more: boolean;
}

/** The changes after `after` of every source, merged in position order, at most `limit`. */
export async function readFeedPage<C extends { change: FeedPosition }>(
  db: Pick<Db, "$queryRaw">,
  sources: readonly FeedSource<C>[],
  after: FeedPosition,
  limit: number,
): Promise<FeedPage<C>> {
  const merged: C[] = [];
  // One source after another: the page takes one pooled connection at a time.
  for (const source of sources) merged.push(...(await source(db, after, limit + 1)));
  merged.sort((a, b) => a.change - b.change);
  const changes = merged.slice(0, limit);
  return { changes, cursor: changes.at(-1)?.change ?? after, has_more: merged.length > limit };
}
