/**
 * When a failed delivery is tried again (docs/integrations.md, "Retries"): exponential backoff from
 * 5 s doubling to 1 h, with jitter (each delay drawn between half and all of its step, so that
 * receivers coming back are not hit by every subscription at once). After 24 h of failures the
 * subscription is marked failing and keeps being tried hourly; its cursor never moves past an
 * event that was not delivered.
 */

export interface RetryPolicy {
  firstMs: number;
  maxMs: number;
  /** How long failures may last before the subscription is marked failing. */
  windowMs: number;
}

export const RETRY_POLICY: RetryPolicy = { firstMs: 5_000, maxMs: 60 * 60 * 1000, windowMs: 24 * 60 * 60 * 1000 };

/** The wait before attempt `failures + 1`, after `failures` (1 or more) failed attempts. */
export function retryDelayMs(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.min(failures - 1, 40));
  return Math.round(step / 2 + (step / 2) * random());
}
