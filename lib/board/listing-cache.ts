import { createHash } from "node:crypto";
import { type FeedPosition, readFeedHead, takeOwnWrite } from "../feed";
import { CircuitOpenError } from "../circuit-breaker";
import { getDb } from "../db/client";
import { log } from "../log";
import { processPart } from "../process-parts";
import { getRedis, type RedisConnection, redisKey } from "../redis";
import { getChangeTail } from "./change-tail";

/**
 * Cache of listing pages and counts that is never stale after a write, on any instance: every
 * entry is keyed by the change feed's number as this instance knows it (lib/board/change-tail.ts follows
 * the feed in every instance, woken by PostgreSQL's NOTIFY at each commit), so a write anywhere
 * moves every instance to new keys within the time a notification takes. The instance that wrote
 * does not wait for its notification: the calls' door marks its writes
 * (lib/feed/own-writes.ts), and its next read first reads the feed's number from the
 * database (read-your-write).
 *
 * In-process by default. With REDIS_URL the entries live in Redis, shared by the instances (one
 * feed, one numbering). When Redis fails or hangs, reads go to the database (every Redis call is
 * bounded by REDIS_TIMEOUT_MS and its circuit breaker); freshness never depends on Redis.
 */

/** Seconds an entry lives (docs/interface.md: recent calls 5 min, filtered results 2 min, counts 10 min). */
export const CACHE_TTL_SECONDS = { recent: 300, filtered: 120, count: 600 } as const;

/** In-process entries are bounded by the records they hold, so memory stays small. */
const MAX_CACHED_WEIGHT = 20_000;

interface MemoryEntry {
  value: unknown;
  expiresAt: number;
  weight: number;
}

interface MemoryState {
  /** The feed's head the entries belong to: entries of an older head are dropped together. */
  head: FeedPosition;
  entries: Map<string, MemoryEntry>;
  weight: number;
  /** The feed number read from the database after this process's own latest write. */
  ownWrites: FeedPosition;
  /** `ownWrites` is to be read again before the next read: this process wrote, or the last try failed. */
  reread: boolean;
}

// One per process: the writers' routes must mark the very state the listing route reads.
function memory(): MemoryState {
  return processPart<MemoryState>("listing cache", () => ({ head: 0, entries: new Map(), weight: 0, ownWrites: 0, reread: false }));
}

/** A cache bound to the feed's head as this instance knew it when the read began. */
export interface HeadCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number, weight: number): Promise<void>;
}

const noCache: HeadCache = {
  get: async () => undefined,
  set: async () => {},
};

function memoryCache(head: FeedPosition): HeadCache {
  const state = memory();
  if (head > state.head) {
    state.head = head;
    state.entries.clear();
    state.weight = 0;
  }
  return {
    get: async <T>(key: string) => {
      if (state.head !== head) return undefined;
      const entry = state.entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        state.entries.delete(key);
        state.weight -= entry.weight;
        return undefined;
      }
      return entry.value as T;
    },
    set: async (key, value, ttlSeconds, weight) => {
      // A newer number arrived while this read ran: keep the entries of the newest only.
      if (state.head !== head || weight > MAX_CACHED_WEIGHT) return;
      const previous = state.entries.get(key);
      if (previous) state.weight -= previous.weight;
      state.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000, weight });
      state.weight += weight;
      // Map iteration is insertion order: drop the oldest entries first.
      for (const [oldKey, entry] of state.entries) {
        if (state.weight <= MAX_CACHED_WEIGHT) break;
        state.entries.delete(oldKey);
        state.weight -= entry.weight;
      }
    },
  };
}

/** Warns about a failed Redis call, unless the breaker is open (it logged the outage once). */
function warnUnlessOpen(error: unknown, message: string): void {
  if (!(error instanceof CircuitOpenError)) log.warn({ err: error }, message);
}

function redisCache(redis: RedisConnection, head: FeedPosition): HeadCache {
  const fullKey = (key: string) => redisKey("calls", `v${head}`, key);
  return {
    get: async <T>(key: string) => {
      try {
        const text = await redis.run((client) => client.get(fullKey(key)));
        return text === null ? undefined : (JSON.parse(text) as T);
      } catch (error) {
        warnUnlessOpen(error, "calls cache read failed; reading the database");
        return undefined;
      }
    },
    set: async (key, value, ttlSeconds) => {
      try {
        await redis.run((client) =>
          client.set(fullKey(key), JSON.stringify(value), { expiration: { type: "EX", value: ttlSeconds } }),
        );
      } catch (error) {
        warnUnlessOpen(error, "calls cache write failed");
      }
    },
  };
}

/**
 * An entry stored under number N was computed after the feed had reached N, so it holds every
 * change up to N: the newest number this instance knows is the key.
 */
async function knownHead(): Promise<FeedPosition> {
  const state = memory();
  if (takeOwnWrite()) state.reread = true;
  if (state.reread) {
    state.ownWrites = await readFeedHead(await getDb());
    state.reread = false;
  }
  return Math.max(await getChangeTail().currentHead(), state.ownWrites);
}

/**
 * The cache for one read, keyed by the feed's current number. While the number cannot be read, or
 * Redis is down or hung (breaker open), the read goes to the database.
 */
export async function openCallsCache(): Promise<HeadCache> {
  let head: FeedPosition;
  try {
    head = await knownHead();
  } catch (error) {
    log.warn({ err: error }, "change feed number unavailable; reading the database");
    memory().reread = true;
    return noCache;
  }
  const redis = getRedis();
  if (!redis) return memoryCache(head);
  if (redis.breaker.isOpen) return noCache;
  return redisCache(redis, head);
}

/** A short, stable key for a filter set (and page). */
export function cacheKey(kind: string, parts: unknown): string {
  return `${kind}:${createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 32)}`;
}
