import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RedisClient } from "../redis";
import type { SharedCounter } from "./store-rate-limiter";
import type { RateLimitDecision, RateLimitPolicy } from "./types";

/**
 * A plain Redis through rate-limiter-flexible's RateLimiterRedis (node-redis, one atomic script
 * per check). Its windows start at a key's first request; the window index in the key aligns them
 * on the clock instead, like Upstash's fixedWindow and MemoryRateLimiter, so every backend answers
 * the same RateLimit-Reset and Retry-After.
 */
export class RedisCounter implements SharedCounter {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
  ) {}

  async consume(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> {
    const window = Math.floor(Date.now() / policy.windowMs);
    let result: RateLimiterRes;
    let allowed = true;
    try {
      result = await this.limiterFor(policy).consume(`${client}:${window}`);
    } catch (error) {
      // The library rejects with its result when the budget is spent, with an Error when Redis failed.
      if (!(error instanceof RateLimiterRes)) throw error;
      result = error;
      allowed = false;
    }
    return {
      outcome: allowed ? "allowed" : "limited",
      limit: policy.limit,
      remaining: result.remainingPoints,
      resetAt: (window + 1) * policy.windowMs,
    };
  }

  private limiterFor(policy: RateLimitPolicy): RateLimiterRedis {
    const id = `${policy.bucket}:${policy.limit}:${policy.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.client,
        useRedisPackage: true,
        keyPrefix: `${this.prefix}:${policy.bucket}`,
        points: policy.limit,
        // Keys outlive their window a little; the window index in the key ends the count on time.
        duration: Math.ceil(policy.windowMs / 1000),
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
