import { Redis as UpstashRedis } from "@upstash/redis";
import { CircuitBreaker } from "../circuit-breaker";
import { getConfig } from "../config";
import { getRedis, redisKey } from "../redis";
import { MemoryRateLimiter } from "./memory";
import { RedisCounter } from "./redis";
import { StoreRateLimiter } from "./store";
import { UpstashCounter } from "./upstash";
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
    const breaker = new CircuitBreaker({
      name: "upstash",
      timeoutMs: config.REDIS_TIMEOUT_MS,
      openMs: config.REDIS_BREAKER_MS,
      failureThreshold: 3,
      probe: () => redis.ping(),
    });
    return new StoreRateLimiter({ backend: "upstash", counter: new UpstashCounter(redis, prefix), guard: breaker, breaker });
  }
  const connection = getRedis();
  if (connection) {
    return new StoreRateLimiter({
      backend: "redis",
      counter: new RedisCounter(connection.client, prefix),
      guard: connection,
      breaker: connection.breaker,
    });
  }
  return new MemoryRateLimiter();
}

// On globalThis: Next.js bundles each route separately, and endpoints sharing a budget (the listing
// and one call) must count in one limiter, as health must report the breaker the routes use.
const registry = globalThis as typeof globalThis & { [key: symbol]: RateLimiter | undefined };
const LIMITER_KEY = Symbol.for("mayday.rate-limiter");

export function getRateLimiter(): RateLimiter {
  registry[LIMITER_KEY] ??= createConfiguredRateLimiter();
  return registry[LIMITER_KEY];
}

/** Tests install a limiter of their own (own key prefix, own clock); undefined restores the default. */
export function setRateLimiterForTests(limiter: RateLimiter | undefined): void {
  registry[LIMITER_KEY] = limiter;
}
