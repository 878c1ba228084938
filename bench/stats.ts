/** The nearest-rank percentile (`q` from 0 to 1) of samples sorted in ascending order. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
