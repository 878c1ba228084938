import { Redis as UpstashRedis } from "@upstash/redis";
import { getConfig } from "../config";
import { getRedis, redisKey } from "../redis";
import { MemoryRateLimiter } from "./memory";
import { NodeRedisScripts } from "./redis-scripts";
import { StoreRateLimiter } from "./store";
import type { RateLimiter } from "./types";

export type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

/** Upstash when its REST URL and token are set, else the plain Redis of REDIS_URL, else this process. */
export function createConfiguredRateLimiter(): RateLimiter {
  const config = getConfig();
  // Under REDIS_KEY_PREFIX like every other key, so deployments sharing one Redis count apart.
  const prefix = redisKey("ratelimit");
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    const redis = new UpstashRedis({
      url: config.UPSTASH_REDIS_REST_URL,
      token: config.UPSTASH_REDIS_REST_TOKEN,
      // A retried check only delays the answer; the policy decides when the store is down.
      retry: { retries: 0 },
      enableTelemetry: false,
    });
    return new StoreRateLimiter({ backend: "upstash", redis, prefix, timeoutMs: config.REDIS_TIMEOUT_MS });
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
      prefix,
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
