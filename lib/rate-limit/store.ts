import { Ratelimit } from "@upstash/ratelimit";
import type { Redis as UpstashRedis } from "@upstash/redis";
import { log } from "../log";
import { MemoryRateLimiter } from "./memory";
import type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

export interface StoreRateLimiterOptions {
  backend: "upstash" | "redis";
  /** An @upstash/redis client, or NodeRedisScripts standing in for one. */
  redis: UpstashRedis;
  /** Prefix of every key, so several deployments (or tests) can share one Redis. */
  prefix: string;
  /** How long a check may wait for the store before the policy's `whenStoreDown` applies. */
  timeoutMs: number;
  /** Counts "local" policies while the store is down. */
  fallback?: MemoryRateLimiter;
}

class StoreTimeout extends Error {}

/**
 * Fixed-window limits kept in Redis or Upstash through @upstash/ratelimit, so every instance of the
 * app shares one count per client. Ratelimit's own timeout lets the request through; it is turned
 * off here so that each policy decides what an unanswered check means.
 */
export class StoreRateLimiter implements RateLimiter {
  readonly backend: "upstash" | "redis";
  private readonly limiters = new Map<string, Ratelimit>();
  private readonly fallback: MemoryRateLimiter;

  constructor(private readonly options: StoreRateLimiterOptions) {
    this.backend = options.backend;
    this.fallback = options.fallback ?? new MemoryRateLimiter();
  }

  async check(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> {
    try {
      const result = await this.withTimeout(this.limiterFor(policy).limit(client));
      return {
        outcome: result.success ? "allowed" : "limited",
        limit: result.limit,
        remaining: result.remaining,
        resetAt: result.reset,
      };
    } catch (error) {
      log.warn(
        { bucket: policy.bucket, backend: this.backend, whenStoreDown: policy.whenStoreDown, err: String(error) },
        "rate-limit store unavailable",
      );
      return this.whenStoreDown(policy, client);
    }
  }

  private whenStoreDown(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> | RateLimitDecision {
    if (policy.whenStoreDown === "local") return this.fallback.check(policy, client);
    const resetAt = Date.now() + policy.windowMs;
    const outcome = policy.whenStoreDown === "allow" ? "unmetered" : "unavailable";
    return { outcome, limit: policy.limit, remaining: 0, resetAt };
  }

  private limiterFor(policy: RateLimitPolicy): Ratelimit {
    const id = `${policy.bucket}:${policy.limit}:${policy.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.options.redis,
        limiter: Ratelimit.fixedWindow(policy.limit, `${policy.windowMs} ms`),
        prefix: `${this.options.prefix}:${policy.bucket}`,
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

  private async withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreTimeout(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
