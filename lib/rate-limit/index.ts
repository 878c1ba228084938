import { Redis as UpstashRedis } from "@upstash/redis";
import { getConfig } from "../config";
import { getRedis } from "../redis";
import { MemoryRateLimiter } from "./memory";
import { NodeRedisScripts } from "./redis-scripts";
import { StoreRateLimiter } from "./store";
import type { RateLimiter } from "./types";

export type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

const KEY_PREFIX = "mayday:ratelimit";

/** Upstash when its REST URL and token are set, else the plain Redis of REDIS_URL, else this process. */
export function createConfiguredRateLimiter(): RateLimiter {
  const config = getConfig();
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    const redis = new UpstashRedis({
      url: config.UPSTASH_REDIS_REST_URL,
      token: config.UPSTASH_REDIS_REST_TOKEN,
      // A retried check only delays the answer; the policy decides when the store is down.
      retry: { retries: 0 },
      enableTelemetry: false,
    });
    return new StoreRateLimiter({ backend: "upstash", redis, prefix: KEY_PREFIX, timeoutMs: config.REDIS_TIMEOUT_MS });
  }
  if (config.REDIS_URL) {
    const scripts = new NodeRedisScripts(async () => {
      const client = await getRedis();
      if (!client) throw new Error("REDIS_URL is not set");
      return client;
    });
    return new StoreRateLimiter({
      backend: "redis",
      redis: scripts.asUpstashRedis(),
      prefix: KEY_PREFIX,
      timeoutMs: config.REDIS_TIMEOUT_MS,
    });
  }
  return new MemoryRateLimiter();
}

let current: RateLimiter | undefined;

export function getRateLimiter(): RateLimiter {
  current ??= createConfiguredRateLimiter();
  return current;
}

/** Tests install a limiter of their own (own key prefix, own clock); undefined restores the default. */
export function setRateLimiterForTests(limiter: RateLimiter | undefined): void {
  current = limiter;
}
