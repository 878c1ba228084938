/**
 * Surge shapes: how an exercise's call rate rises and falls over its duration. Each is a relative
 * rate r(x) for x in [0, 1] (the share of the exercise elapsed); only its proportions matter.
 * Planning (./plan.ts) samples due times from the cumulative curve, and the debrief draws the
 * plan from the same curve.
 */
export const SURGE_SHAPES = {
  // Builds over the first 30 %, peaks, then fades: a wildfire or hurricane landfall.
  "ramp-peak-decay": (x: number) => (x < 0.3 ? 0.1 + (0.9 * x) / 0.3 : Math.exp(-3.5 * (x - 0.3))),
  // At full rate from the first minute, then decaying: an earthquake.
  "sudden-onset": (x: number) => Math.exp(-3 * x) + 0.05,
  // Two surges: a first impact and a second (aftershock, levee failure, the fire turning).
  "double-wave": (x: number) => Math.exp(-(((x - 0.25) / 0.1) ** 2)) + 0.8 * Math.exp(-(((x - 0.7) / 0.12) ** 2)) + 0.05,
  // The same rate throughout.
  steady: () => 1,
} satisfies Record<string, (x: number) => number>;

export type SurgeShape = keyof typeof SURGE_SHAPES;
export const SURGE_SHAPE_NAMES = Object.keys(SURGE_SHAPES) as [SurgeShape, ...SurgeShape[]];

/** Steps of the numeric integration: fine enough that a 1-minute bin of a 120-minute plan is exact to 0.1 %. */
const STEPS = 2400;

export interface SurgeCurve {
  /** Share of all calls due by x (0 at 0, 1 at 1), piecewise linear. */
  cumulative(x: number): number;
  /** The x by which `share` of the calls are due: the inverse of cumulative. */
  quantile(share: number): number;
  /** Peak rate over mean rate (>= 1): turns a peak calls-per-minute into a number of calls. */
  peakToMean: number;
}

const curves = new Map<SurgeShape, SurgeCurve>();

/** The shape's cumulative curve, integrated once per process (trapezoids over STEPS steps). */
export function surgeCurve(shape: SurgeShape): SurgeCurve {
  const cached = curves.get(shape);
  if (cached) return cached;
  const rate = SURGE_SHAPES[shape];
  const area = new Float64Array(STEPS + 1);
  let peak = 0;
  for (let step = 1; step <= STEPS; step++) {
    const left = rate((step - 1) / STEPS);
    const right = rate(step / STEPS);
    peak = Math.max(peak, left, right);
    area[step] = area[step - 1] + (left + right) / 2 / STEPS;
  }
  const total = area[STEPS];
  const cumulativeAt = (step: number) => area[step] / total;
  const curve: SurgeCurve = {
    cumulative(x) {
      const position = Math.min(Math.max(x, 0), 1) * STEPS;
      const step = Math.min(Math.floor(position), STEPS - 1);
      return cumulativeAt(step) + (cumulativeAt(step + 1) - cumulativeAt(step)) * (position - step);
    },
    quantile(share) {
      // Binary search for the step whose cumulative range holds `share`, then interpolate.
      let low = 0;
      let high = STEPS;
      while (high - low > 1) {
        const middle = (low + high) >> 1;
        if (cumulativeAt(middle) <= share) low = middle;
        else high = middle;
      }
      const span = cumulativeAt(high) - cumulativeAt(low);
      return (low + (span > 0 ? (share - cumulativeAt(low)) / span : 0)) / STEPS;
    },
    peakToMean: peak / total,
  };
  curves.set(shape, curve);
  return curve;
}
