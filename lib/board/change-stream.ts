import { getDb } from "../db/client";
import type { FeedPosition } from "../feed";
import { readChangesFrom } from "./feed-pages";
import { encodeChange, getChangeTail, type EncodedChange } from "./change-tail";

/**
 * GET /api/calls/stream: the change feed as server-sent events, `id` = change number. It replays
 * every change after the client's cursor (Last-Event-ID) from the feed, then follows this process's
 * tail: no gap (the feed is gapless and the tail reads it) and no duplicate (a change is sent only
 * if its number is above the cursor). Pull-based: a slow client is sent more only as it reads.
 */

/** Comment lines keep idle proxies from closing the connection. */
export const HEARTBEAT_MS = 15_000;
/** The browser waits this long before reconnecting. */
const RETRY_MS = 2_000;
const CATCH_UP_PAGE = 500;

const encoder = new TextEncoder();

export interface StreamOptions {
  /** The last change the client has; undefined: from the current head (nothing old is replayed). */
  after: FeedPosition | undefined;
  /** The request's signal: the client went away. */
  signal: AbortSignal;
  heartbeatMs?: number;
}

export function openChangeStream({ after, signal, heartbeatMs = HEARTBEAT_MS }: StreamOptions): ReadableStream<Uint8Array> {
  const tail = getChangeTail();
  const closed = new AbortController();
  let cursor = after;
  let heartbeat: NodeJS.Timeout | undefined;
  const unfollow = tail.follow();

  const finish = () => {
    clearInterval(heartbeat);
    unfollow();
    closed.abort();
  };
  signal.addEventListener("abort", finish, { once: true });

  /** The next changes after the cursor, from memory when it holds them, else from the feed. */
  const nextBatch = async (): Promise<EncodedChange[]> => {
    for (;;) {
      if (closed.signal.aborted) return [];
      const mark = tail.mark;
      const kept = tail.since(cursor!);
      if (kept === undefined) {
        const page = await readChangesFrom(await getDb(), cursor!, CATCH_UP_PAGE);
        if (page.changes.length > 0) return page.changes.map(encodeChange);
        // Nothing after the cursor yet although memory does not reach back to it: wait for news.
      } else if (kept.length > 0) {
        return kept;
      }
      await tail.changedSince(mark, closed.signal);
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        if (signal.aborted) {
          finish();
          return controller.close();
        }
        cursor ??= await tail.currentHead();
        await tail.start();
        // The client may have gone while the head was read: its controller is closed by then.
        if (closed.signal.aborted) return;
        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: connected at change ${cursor}\n\n`));
        heartbeat = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(": heartbeat\n\n"));
          } catch {
            finish();
          }
        }, heartbeatMs);
        heartbeat.unref();
      },
      async pull(controller) {
        const batch = await nextBatch();
        if (closed.signal.aborted) {
          try {
            controller.close();
          } catch {
            // Already closed by the consumer.
          }
          return;
        }
        for (const change of batch) {
          if (change.change <= cursor!) continue;
          controller.enqueue(change.bytes);
          cursor = change.change;
        }
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 1 },
  );
}
