"use client";

import { type InvalidateQueryFilters, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { FeedPosition } from "@/lib/feed";
import { getChanges, sessionLost, STREAM_URL, type CallChange, type FeedChange } from "../shared/api";
import { POLL_MS } from "../shared/use-calls";
import { rereadQueries } from "../shared/reread";

/**
 * Follows the change feed from the board's cursor: the server-sent event stream when it works,
 * else polling GET /api/calls/changes. Changes are not patched into the picture piece by piece:
 * they mark the board, incident queue, incident map, incident detail and history stale, and
 * react-query reads those small, bounded answers again, so the screen always shows the server's
 * own figures. Each family is read again at most once per its interval (REFRESH_MS), the first
 * change of a quiet spell at once: the counts, alerts, queue and map every second (every two in a
 * surge), the history every five, so a thousand calls a minute cost the page a bounded number of
 * reads (docs/dashboard.md). A note marks only the open incident's notes stale.
 */

export type FeedMode = "connecting" | "live" | "polling";

/**
 * How often each family of the picture may be read again while changes keep coming: what a busy
 * minute costs it (a queue page about 3 KB gzipped, the alerts 3 KB, the board 1.3 KB, the map
 * 3 KB, a history page 4 KB) and the most it adds to a change's delay on screen.
 */
const REFRESH_MS = { board: 1_000, alerts: 1_000, picture: 1_000, details: 2_000, history: 5_000, notes: 250, units: 1_000 } as const;
/**
 * The larger answers' interval in a surge: a call every second or two (each a few changes: its
 * arrival, its placement, an acknowledgement) is on screen at once, a thousand a minute cost the
 * page a read every two seconds (docs/dashboard.md).
 */
const BUSY_REFRESH_MS: Partial<Record<Family, number>> = { alerts: 2_000, picture: 2_000 };
/** A surge: more than this many changes within BUSY_WINDOW_MS (four a second; a surge brings dozens). */
const BUSY_CHANGES = 20;
const BUSY_WINDOW_MS = 5_000;
type Family = keyof typeof REFRESH_MS;
/** What a call's change marks stale. */
const CALL_FAMILIES: Family[] = ["board", "alerts", "picture", "details", "history"];

/** What each family is: the react-query keys it reads again. */
const FAMILIES: Record<Family, InvalidateQueryFilters[]> = {
  board: [{ queryKey: ["live", "board"] }],
  alerts: [{ queryKey: ["alerts"] }],
  picture: [{ queryKey: ["live"], predicate: (query) => query.queryKey[1] !== "board" }],
  details: [{ queryKey: ["call"] }, { queryKey: ["incident"] }],
  history: [{ queryKey: ["calls"] }],
  notes: [{ queryKey: ["notes"] }],
  // A unit that moves changes the open incident's recommendation and what its units do.
  units: [{ queryKey: ["units"] }, { queryKey: ["unit-recommendation"] }, { queryKey: ["incident"] }],
};
/** After the stream failed, polling runs this long before the stream is tried again. */
const STREAM_RETRY_MS = 30_000;
/** A call first seen this long after it was created is not news. */
const NEW_WITHIN_MS = 120_000;
/** How long an incident with a newly arrived call stays highlighted; arrivals older are forgotten. */
export const NEW_FOR_MS = 30_000;
/**
 * Stream events are applied together, at most this often: in a surge of a thousand calls a minute
 * the stream carries several events a second, and each applied alone re-rendered the page. The
 * first event of a quiet spell is applied at once: a new call after a calm is not held back.
 */
const STREAM_BATCH_MS = 250;

export interface ChangeFeed {
  mode: FeedMode;
  /** When the picture was last known current (stream opened, a change, a successful poll). */
  updatedAt: number;
  error: Error | null;
  /** Calls that arrived while the page was open, with when they did (the queue highlights them). */
  arrivals: Map<string, number>;
}

export function useChangeFeed(startCursor: FeedPosition | undefined, known: ReadonlySet<string>): ChangeFeed {
  const client = useQueryClient();
  const router = useRouter();
  const [mode, setMode] = useState<FeedMode>("connecting");
  const [updatedAt, setUpdatedAt] = useState(0);
  const [error, setError] = useState<Error | null>(null);
  const [arrivals, setArrivals] = useState<Map<string, number>>(() => new Map());
  const knownRef = useRef(known);
  knownRef.current = known;
  const started = startCursor !== undefined;
  const startRef = useRef(startCursor);
  startRef.current ??= startCursor;

  useEffect(() => {
    if (!started) return;
    let cursor = startRef.current ?? 0;
    let stopped = false;
    let source: EventSource | null = null;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let batchTimer: ReturnType<typeof setTimeout> | undefined;
    // When the stream's events were last applied: at most once per STREAM_BATCH_MS.
    let lastBatchAt = 0;
    const streamed: FeedChange[] = [];
    const refreshTimers = new Map<Family, ReturnType<typeof setTimeout>>();
    const lastRefresh = new Map<Family, number>();
    const seen = new Set<string>();
    // The board's latest read: the other families wait for it, so on a busy server the counts do
    // not wait behind the larger answers.
    let boardRead: Promise<unknown> = Promise.resolve();
    // The alerts' latest read: they wait for nothing (a dispatcher must hear a new critical call
    // first), and the larger answers wait for them too.
    let alertsRead: Promise<unknown> = Promise.resolve();
    // When recent changes came, for telling a surge from calls arriving one by one.
    let recentChanges: number[] = [];

    /**
     * Reads a family again, paced by its interval; `paced: false` (an acknowledgement: a person's
     * act, as fast as people act) reads at once and leaves the pace of the calls' reads as it was,
     * so the next new call is not kept waiting behind it.
     */
    const refreshFamily = (family: Family, paced = true) => {
      if (refreshTimers.has(family)) return;
      const last = lastRefresh.get(family) ?? 0;
      const now = Date.now();
      const interval = recentChanges.length > BUSY_CHANGES ? (BUSY_REFRESH_MS[family] ?? REFRESH_MS[family]) : REFRESH_MS[family];
      const wait = paced ? Math.max(0, last + interval - now) : 0;
      refreshTimers.set(
        family,
        setTimeout(() => {
          refreshTimers.delete(family);
          if (paced) lastRefresh.set(family, Date.now());
          const read = () => Promise.all(FAMILIES[family].map((filters) => rereadQueries(client, filters)));
          if (family === "board") boardRead = read().catch(() => undefined);
          else if (family === "alerts") alertsRead = read().catch(() => undefined);
          else void Promise.all([boardRead, alertsRead]).then(() => (stopped ? undefined : read()));
        }, wait),
      );
    };
    const apply = (feedChanges: FeedChange[]) => {
      const now = Date.now();
      setUpdatedAt(now);
      if (feedChanges.length === 0) return;
      cursor = Math.max(cursor, feedChanges.at(-1)!.change);
      recentChanges = recentChanges.filter((at) => now - at < BUSY_WINDOW_MS);
      recentChanges.push(...feedChanges.filter((change) => !("acknowledgement" in change)).map(() => now));
      const changes = feedChanges.filter((change): change is CallChange => "call" in change);
      if (feedChanges.some((change) => "note" in change)) refreshFamily("notes");
      if (feedChanges.some((change) => "unit" in change)) refreshFamily("units");
      if (feedChanges.some((change) => "acknowledgement" in change)) refreshFamily("alerts", false);
      if (changes.length === 0) return;
      const fresh = changes.filter(({ call }) => {
        const first = !seen.has(call.conversation_id) && !knownRef.current.has(call.conversation_id);
        seen.add(call.conversation_id);
        return first && now - Date.parse(call.created_at) < NEW_WITHIN_MS;
      });
      if (fresh.length > 0) {
        setArrivals((previous) => {
          const next = new Map<string, number>();
          for (const [id, at] of previous) if (now - at < NEW_FOR_MS) next.set(id, at);
          for (const { call } of fresh) next.set(call.conversation_id, now);
          return next;
        });
      }
      for (const family of CALL_FAMILIES) refreshFamily(family);
    };

    const poll = async () => {
      pollTimer = undefined;
      try {
        for (;;) {
          const page = await getChanges(cursor);
          if (stopped) return;
          apply(page.changes);
          if (!page.has_more) break;
        }
        setError(null);
      } catch (failure) {
        if (stopped) return;
        if (sessionLost(failure)) router.push("/login?next=/");
        setError(failure as Error);
      }
      if (!stopped && source === null) pollTimer = setTimeout(() => void poll(), POLL_MS);
    };

    const openStream = () => {
      if (stopped) return;
      clearTimeout(pollTimer);
      pollTimer = undefined;
      const stream = new EventSource(`${STREAM_URL}?after=${cursor}`);
      source = stream;
      stream.onopen = () => {
        setMode("live");
        setError(null);
        setUpdatedAt(Date.now());
        // Whatever changed while the stream was down arrives as events from `cursor`.
      };
      stream.addEventListener("change", (event) => {
        streamed.push(JSON.parse((event as MessageEvent<string>).data) as FeedChange);
        if (batchTimer !== undefined) return;
        const wait = lastBatchAt + STREAM_BATCH_MS - Date.now();
        const applyBatch = () => {
          batchTimer = undefined;
          lastBatchAt = Date.now();
          apply(streamed.splice(0));
        };
        if (wait <= 0) applyBatch();
        else batchTimer = setTimeout(applyBatch, wait);
      });
      stream.onerror = () => {
        // The browser would retry by itself; instead poll (the same feed) and try again later,
        // so the screen says which it is doing.
        stream.close();
        if (source !== stream) return;
        source = null;
        setMode("polling");
        void poll();
        retryTimer = setTimeout(openStream, STREAM_RETRY_MS);
      };
    };

    openStream();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(pollTimer);
      clearTimeout(retryTimer);
      clearTimeout(batchTimer);
      for (const timer of refreshTimers.values()) clearTimeout(timer);
    };
  }, [started, client, router]);

  return { mode, updatedAt, error, arrivals };
}
