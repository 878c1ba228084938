import { loadavg } from "node:os";

/** The nearest-rank percentile (`q` from 0 to 1) of samples sorted in ascending order. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Latencies in ms (null: never seen) as the benches report them: how many were seen, how many
 * within 1 s, and the p50, p95 and max of those seen, rounded.
 */
export function latencySummary(values: readonly (number | null)[]) {
  const seen = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  return {
    seen: seen.length,
    within_1s: seen.filter((value) => value <= 1_000).length,
    p50_ms: seen.length ? Math.round(percentile(seen, 0.5)) : null,
    p95_ms: seen.length ? Math.round(percentile(seen, 0.95)) : null,
    max_ms: seen.length ? Math.round(seen.at(-1)!) : null,
  };
}

/** This machine's load average (1, 5 and 15 minutes), to two decimals: each bench prints it beside its figures. */
export const loadAverage = () => loadavg().map((value) => Number(value.toFixed(2)));
