import { createHash } from "node:crypto";
import { log } from "../log";
import { CircuitOpenError } from "../circuit-breaker";
import { getRedis, type RedisConnection, redisKey } from "../redis";

/**
 * Cache of listing pages and counts that is never stale after a write: every write to the calls
 * table bumps a version (bumpCallsVersion), and the version is part of every cache key, so the
 * next read after a write misses and goes to the database.
 *
 * In-process by default. With REDIS_URL the version and the entries live in Redis, so every app
 * instance sees every other instance's writes. When Redis fails or hangs, reads go to the database
 * (every Redis call is bounded by REDIS_TIMEOUT_MS and its circuit breaker).
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
  version: number;
  entries: Map<string, MemoryEntry>;
  weight: number;
}

// On globalThis: Next.js bundles each route separately, and the writers' routes must bump the
// very version the listing route reads.
const registry = globalThis as typeof globalThis & { [key: symbol]: MemoryState | undefined };
const MEMORY_KEY = Symbol.for("mayday.calls.cache");

function memory(): MemoryState {
  registry[MEMORY_KEY] ??= { version: 0, entries: new Map(), weight: 0 };
  return registry[MEMORY_KEY];
}

/** A cache bound to the version current when the read began. */
export interface VersionedCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number, weight: number): Promise<void>;
}

const noCache: VersionedCache = {
  get: async () => undefined,
  set: async () => {},
};

function memoryCache(): VersionedCache {
  const state = memory();
  const version = state.version;
  return {
    get: async <T>(key: string) => {
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
      // A write happened while this read ran: its result may predate the write.
      if (state.version !== version || weight > MAX_CACHED_WEIGHT) return;
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

const VERSION_KEY = ["calls", "version"];

// A bump that failed while Redis was down is owed: it is made before this process reads the Redis
// cache again, and as soon as the breaker closes, so entries cached before a write made during the
// outage stop being served. On globalThis like the memory state, for the same reason.
const owed = globalThis as typeof globalThis & { [key: symbol]: { bump: boolean; watching: WeakSet<RedisConnection> } | undefined };
const OWED_KEY = Symbol.for("mayday.calls.cache.owed");

function owedState() {
  owed[OWED_KEY] ??= { bump: false, watching: new WeakSet() };
  return owed[OWED_KEY];
}

/** Warns about a failed Redis call, unless the breaker is open (it logged the outage once). */
function warnUnlessOpen(error: unknown, message: string): void {
  if (!(error instanceof CircuitOpenError)) log.warn({ err: error }, message);
}

function redisCache(redis: RedisConnection, version: string): VersionedCache {
  const fullKey = (key: string) => redisKey("calls", `v${version}`, key);
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

async function payOwedBump(redis: RedisConnection): Promise<void> {
  const state = owedState();
  if (!state.bump) return;
  await redis.run((client) => client.incr(redisKey(...VERSION_KEY)));
  state.bump = false;
}

function watchBreaker(redis: RedisConnection): void {
  const state = owedState();
  if (state.watching.has(redis)) return;
  state.watching.add(redis);
  redis.breaker.onClose(() => {
    payOwedBump(redis).catch((error) => warnUnlessOpen(error, "calls cache version bump failed"));
  });
}

/**
 * The cache for one read, keyed by the current version. While Redis is down or hung (breaker
 * open) the read goes to the database: nothing is served from a cache whose version cannot be read.
 */
export async function openCallsCache(): Promise<VersionedCache> {
  const redis = getRedis();
  if (!redis) return memoryCache();
  watchBreaker(redis);
  if (redis.breaker.isOpen) return noCache;
  try {
    await payOwedBump(redis);
    const version = (await redis.run((client) => client.get(redisKey(...VERSION_KEY)))) ?? "0";
    return redisCache(redis, version);
  } catch (error) {
    warnUnlessOpen(error, "calls cache unavailable; reading the database");
    return noCache;
  }
}

/**
 * Every writer of the calls table calls this after its write committed and before it answers,
 * so the caller's next listing (from any instance sharing the Redis) shows the write.
 */
export async function bumpCallsVersion(): Promise<void> {
  const redis = getRedis();
  if (!redis) {
    const state = memory();
    state.version += 1;
    state.entries.clear();
    state.weight = 0;
    return;
  }
  watchBreaker(redis);
  try {
    await redis.run((client) => client.incr(redisKey(...VERSION_KEY)));
  } catch (error) {
    owedState().bump = true;
    warnUnlessOpen(error, "calls cache version bump failed; owed until Redis answers");
  }
}

/** A short, stable key for a filter set (and page). */
export function cacheKey(kind: string, parts: unknown): string {
  return `${kind}:${createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 32)}`;
}
