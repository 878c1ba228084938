import { getConfig } from "../config";
import { getDb } from "../db/client";
import { type FeedPosition, onFeedMoved, readFeedHead } from "../feed";
import { log } from "../log";
import { existingPart, forgetPart, processPart } from "../process-parts";
import { readChangesFrom } from "./feed-pages";
import type { FeedChange } from "./schema";

/**
 * This process's reader of the change feed, shared by all its stream clients: one feed read per
 * wake-up, however many clients are connected. It keeps the latest changes (already encoded as
 * server-sent events) so clients at the head are served from memory; a client further behind reads
 * the feed itself until it catches up. With no stream client open it reads only the feed's head
 * (what the listing's cache and the subscriptions' worker follow), not the changes themselves:
 * under a surge of webhooks that read and its encoding were a tenth of the process's time
 * (docs/performance.md, issue 25). It is woken by the notifier, and also reads on a timer in
 * case a notification never comes (a connection dropped between commit and LISTEN).
 */

/** Changes kept in memory for clients near the head. */
const KEPT = 2_000;
const PAGE = 500;

export interface EncodedChange {
  change: FeedPosition;
  /** The whole event: `id: <change>`, `event: change`, `data: <FeedChange JSON>`. */
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

export function encodeChange(change: FeedChange): EncodedChange {
  return { change: change.change, bytes: encoder.encode(`id: ${change.change}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`) };
}

export class ChangeTail {
  /** Every change in (keptFrom, head] is in `kept`, in order. */
  private head: FeedPosition = 0;
  private keptFrom: FeedPosition = 0;
  private kept: EncodedChange[] = [];
  private version = 0;
  private waiters = new Set<() => void>();
  private ready: Promise<void> | undefined;
  private reading = false;
  private readAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private streams = 0;
  private unlisten: (() => Promise<void>) | undefined;

  /** Starts on first use: the head is the feed's current change number. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      this.head = await readFeedHead(await getDb());
      this.keptFrom = this.head;
      this.unlisten = onFeedMoved(() => this.wake());
      // One indexed probe of the feed per interval.
      this.timer = setInterval(() => this.wake(), getConfig().LIVE_FEED_SAFETY_READ_MS);
      this.timer.unref();
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async currentHead(): Promise<FeedPosition> {
    await this.start();
    return this.head;
  }

  /** Changes after `cursor` from memory; undefined when they are older than what is kept. */
  since(cursor: FeedPosition): EncodedChange[] | undefined {
    if (cursor < this.keptFrom) return undefined;
    let low = 0;
    let high = this.kept.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.kept[middle].change <= cursor) low = middle + 1;
      else high = middle;
    }
    return this.kept.slice(low);
  }

  /** A token to pass to `changedSince`, taken before looking at `since`. */
  get mark(): number {
    return this.version;
  }

  /** Resolves once the tail has read past `mark` (at once if it already has) or on `signal`. */
  changedSince(mark: number, signal: AbortSignal): Promise<void> {
    if (this.version !== mark || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** A stream client follows the tail from now until it calls the answer: changes are kept for it. */
  follow(): () => void {
    this.streams += 1;
    let followed = true;
    return () => {
      if (followed) this.streams -= 1;
      followed = false;
    };
  }

  get listeners(): number {
    return this.waiters.size;
  }

  wake(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    void this.readNew().finally(() => {
      this.reading = false;
      if (this.readAgain) {
        this.readAgain = false;
        this.wake();
      }
    });
  }

  private async readNew(): Promise<void> {
    try {
      const db = await getDb();
      if (this.streams === 0) {
        // Nothing kept: a stream that opens later reads from the feed what it lacks.
        const head = await readFeedHead(db);
        if (head > this.head) {
          this.kept = [];
          this.head = this.keptFrom = head;
          this.moved();
        }
        return;
      }
      for (;;) {
        const page = await readChangesFrom(db, this.head, PAGE);
        if (page.changes.length === 0) return;
        this.kept.push(...page.changes.map(encodeChange));
        this.head = page.cursor;
        if (this.kept.length > KEPT) {
          const dropped = this.kept.splice(0, this.kept.length - KEPT);
          this.keptFrom = dropped.at(-1)!.change;
        }
        this.moved();
        if (!page.has_more) return;
      }
    } catch (error) {
      // The next notification or safety read tries again from the same head: nothing is skipped.
      log.warn({ err: error }, "change feed read failed");
    }
  }

  private moved(): void {
    this.version += 1;
    for (const waiter of [...this.waiters]) waiter();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unlisten?.();
  }
}

const TAIL_PART = "change tail";

/** The process's one tail, shared by every route bundle. */
export function getChangeTail(): ChangeTail {
  return processPart(TAIL_PART, () => new ChangeTail(), (tail) => tail.stop());
}

/** Closes the LISTEN connection (tests); the next use starts a new tail. */
export async function stopChangeTail(): Promise<void> {
  const tail = existingPart<ChangeTail>(TAIL_PART);
  forgetPart(TAIL_PART, tail);
  await tail?.stop();
}
