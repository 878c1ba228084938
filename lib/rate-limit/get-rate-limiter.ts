import { Redis as UpstashRedis } from "@upstash/redis";
import { CircuitBreaker } from "../circuit-breaker";
import { getConfig } from "../config";
import { replacePart, processPart } from "../process-parts";
import { getRedis, redisKey } from "../redis";
import { MemoryRateLimiter } from "./memory";
import { RedisCounter } from "./redis-counter";
import { StoreRateLimiter } from "./store-rate-limiter";
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

const LIMITER_PART = "rate limiter";

// One per process: endpoints sharing a budget (the listing and one call) must count in one
// limiter, as health must report the breaker the routes use.
export function getRateLimiter(): RateLimiter {
  return processPart(LIMITER_PART, createConfiguredRateLimiter);
}

/** Tests install a limiter of their own (own key prefix, own clock); undefined restores the default. */
export function setRateLimiterForTests(limiter: RateLimiter | undefined): void {
  replacePart(LIMITER_PART, limiter);
}
