import { type CircuitBreaker, CircuitOpenError, type CircuitStatus } from "../circuit-breaker";
import { log } from "../log";
import { MemoryRateLimiter } from "./memory";
import type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

/** One request of `client` counted in a shared store under `policy`'s fixed window. */
export interface SharedCounter {
  consume(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision>;
}

/** Bounds a store call in time and stops calling a store that is down (a circuit breaker). */
export interface StoreGuard {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export interface StoreRateLimiterOptions {
  backend: "upstash" | "redis";
  counter: SharedCounter;
  guard: StoreGuard;
  /** The breaker behind `guard`, reported by health. */
  breaker: CircuitBreaker;
  /** Counts "local" policies while the store is down. */
  fallback?: MemoryRateLimiter;
}

/**
 * Limits shared by every instance through Redis or Upstash. When the store cannot answer in time
 * (or its breaker is open), each policy's `whenStoreDown` decides: per-process count, let through,
 * or refuse.
 */
export class StoreRateLimiter implements RateLimiter {
  readonly backend: "upstash" | "redis";
  private readonly fallback: MemoryRateLimiter;

  constructor(private readonly options: StoreRateLimiterOptions) {
    this.backend = options.backend;
    this.fallback = options.fallback ?? new MemoryRateLimiter();
  }

  breakerStatus(): CircuitStatus {
    return this.options.breaker.status();
  }

  async check(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> {
    try {
      return await this.options.guard.run(() => this.options.counter.consume(policy, client));
    } catch (error) {
      // An open breaker was logged when it opened: one line per outage, not one per request.
      if (!(error instanceof CircuitOpenError)) {
        log.warn(
          { bucket: policy.bucket, backend: this.backend, whenStoreDown: policy.whenStoreDown, err: String(error) },
          "rate-limit store unavailable",
        );
      }
      return this.whenStoreDown(policy, client);
    }
  }

  private whenStoreDown(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> | RateLimitDecision {
    if (policy.whenStoreDown === "local") return this.fallback.check(policy, client);
    const resetAt = Date.now() + policy.windowMs;
    const outcome = policy.whenStoreDown === "allow" ? "unmetered" : "unavailable";
    return { outcome, limit: policy.limit, remaining: 0, resetAt };
  }
}
