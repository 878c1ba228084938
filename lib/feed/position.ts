/**
 * A position in the change feed: the number a row took from the feed's sequence under the feed's
 * lock (lock.ts), so positions commit in order and a reader at position n has seen every change up
 * to n; 0 is before the first change. The API names it as its place says (a change's `change`, a
 * page's `cursor`, the `after` a reader passes, the stream's event id: docs/dashboard.md), the
 * code by this one type.
 */
export type FeedPosition = number;
