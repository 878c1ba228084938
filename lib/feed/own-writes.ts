import { processPart } from "../process-parts";

/**
 * Whether this process wrote calls since its listing cache last read the change feed's head
 * (lib/board/listing-cache.ts): the door marks every commit that wrote calls before it answers, so
 * this instance's next listing reads the head from the database first (read-your-write) rather
 * than wait for the feed's notification. Other instances learn of the write from the feed itself.
 */
function ownWrites(): { wrote: boolean } {
  return processPart("own calls writes", () => ({ wrote: false }));
}

/** Marks that this process wrote calls: after the commit, before answering. */
export function markOwnWrite(): void {
  ownWrites().wrote = true;
}

/** Whether calls were written since the last call of this; clears the mark. */
export function takeOwnWrite(): boolean {
  const state = ownWrites();
  const wrote = state.wrote;
  state.wrote = false;
  return wrote;
}
