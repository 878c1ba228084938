import type { CircuitStatus } from "../circuit-breaker";

/** A per-client request budget for one endpoint (or a family of endpoints sharing it). */
export interface RateLimitPolicy {
  /** Key prefix; endpoints naming the same bucket share one budget per client. */
  bucket: string;
  /** Requests allowed per window and client. */
  limit: number;
  windowMs: number;
  /**
   * When the shared store (Redis, Upstash) cannot answer in time:
   * - "allow": let the request through (losing it would cost more than an unmetered request);
   * - "refuse": answer 503 (the endpoint is costly and optional);
   * - "local": count in this process instead (a per-instance limit beats none).
   */
  whenStoreDown: "allow" | "refuse" | "local";
}

/**
 * "unmetered": let through uncounted because the store is down ("allow" policies);
 * "unavailable": refused because the store is down ("refuse" policies).
 */
export type RateLimitOutcome = "allowed" | "limited" | "unmetered" | "unavailable";

export interface RateLimitDecision {
  outcome: RateLimitOutcome;
  limit: number;
  remaining: number;
  /** Unix milliseconds at which the current window ends. */
  resetAt: number;
}

export interface RateLimiter {
  readonly backend: "upstash" | "redis" | "memory";
  check(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision>;
  /** The shared store's circuit breaker; absent for per-process limits. */
  breakerStatus?(): CircuitStatus;
}
