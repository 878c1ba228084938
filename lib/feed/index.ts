/**
 * The change feed's door (docs/architecture.md, "Layers"): other folders import the feed
 * from here, never its files (tests/unit/import-direction.test.ts), so its lock and its write turns
 * are taken only through a feed transaction.
 */
export { feedHead, readFeedHead } from "./head";
export { CHANGE_FEED_LOCK } from "./lock";
export { markOwnWrite, takeOwnWrite } from "./own-writes";
export type { FeedPosition } from "./position";
export { type FeedPage, type FeedSource, readFeedPage } from "./read";
export { type FeedTransactionOptions, type FeedTx, inFeedTransaction, withFeedLock } from "./transaction";
export { onFeedMoved } from "./wake";
