import type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

/** Drop ended windows once this many are held, so memory stays bounded under many clients. */
const SWEEP_AT = 10_000;

/**
 * Fixed windows counted in this process: the limiter when no shared store is configured, and the
 * fallback of "local" policies while the store is down. Windows are aligned on the clock like
 * @upstash/ratelimit's fixedWindow, so every backend answers the same headers.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly backend = "memory";
  private readonly windows = new Map<string, { resetAt: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async check(policy: RateLimitPolicy, client: string): Promise<RateLimitDecision> {
    const now = this.now();
    if (this.windows.size >= SWEEP_AT) this.sweep(now);
    const key = `${policy.bucket}:${client}`;
    const current = this.windows.get(key);
    const entry =
      current && now < current.resetAt
        ? { resetAt: current.resetAt, count: current.count + 1 }
        : { resetAt: (Math.floor(now / policy.windowMs) + 1) * policy.windowMs, count: 1 };
    this.windows.set(key, entry);
    return {
      outcome: entry.count <= policy.limit ? "allowed" : "limited",
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - entry.count),
      resetAt: entry.resetAt,
    };
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}
