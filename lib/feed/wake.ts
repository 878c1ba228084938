import { CHANNELS, listen } from "../db/notifications";

/**
 * Calls `onWake` after each commit that moved the feed, on any instance (merged, at least once),
 * and after each reconnection of this process's LISTEN (lib/db/notifications.ts). Answers the
 * function that stops listening.
 */
export function onFeedMoved(onWake: () => void): () => Promise<void> {
  return listen(CHANNELS.feed, onWake);
}
