import { Ratelimit } from "@upstash/ratelimit";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { SharedCounter } from "./store-rate-limiter";
import type { RateLimitDecision, RateLimitPolicy } from "./types";

/**
 * Upstash through its own @upstash/ratelimit (fixedWindow). Ratelimit's timeout, which lets the
 * request through, is off: the StoreRateLimiter's guard bounds the call and the policy decides.
 */
export class UpstashCounter implements SharedCounter {
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(
    private readonly redis: UpstashRedis,
    private readonly prefix: string,
  ) {}

  async consume(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> {
    const result = await this.limiterFor(policy).limit(client);
    return {
      outcome: result.success ? "allowed" : "limited",
      limit: result.limit,
      remaining: result.remaining,
      resetAt: result.reset,
    };
  }

  private limiterFor(policy: RateLimitPolicy): Ratelimit {
    const id = `${policy.bucket}:${policy.limit}:${policy.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.redis,
        limiter: Ratelimit.fixedWindow(policy.limit, `${policy.windowMs} ms`),
        prefix: `${this.prefix}:${policy.bucket}`,
        timeout: 0,
        analytics: false,
        enableProtection: false,
        enableTelemetry: false,
        // Blocked clients stay blocked in this process until their window ends, without a round
        // trip; a Map of its own per limiter, so instances (and tests) never share it.
        ephemeralCache: new Map(),
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
