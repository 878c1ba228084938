import type { Scenario } from "../scenarios";
import { generateCalls } from "../simulation";
import type { SimulatedCall } from "../vocabulary";
import { seededRandom } from "../simulation/random";
import { type SurgeShape, surgeCurve } from "./shapes";

/**
 * An exercise's calls, planned before it starts. Pure and deterministic per seed (call ids aside,
 * which never come from the seed): the content is the simulator's (lib/simulation), the due times
 * follow the surge curve.
 *
 * Due times are stratified: call i of n is due at the curve's quantile of (i + u) / n with u drawn
 * uniformly, so every stretch of the exercise holds its planned share of calls to fewer than two
 * calls (one per end), where independent draws would scatter by about the square root of the count.
 */
export interface PlannedCall {
  seq: number;
  dueOffsetMs: number;
  abandoned: boolean;
  call: SimulatedCall;
}

export interface PlanOptions {
  scenario: Scenario;
  shape: SurgeShape;
  durationMinutes: number;
  numCalls: number;
  abandonedShare: number;
  seed: number;
  now: Date;
  callNumber: () => number;
}

/** Calls over the whole exercise for a peak rate (calls per exercise minute at the curve's peak). */
export function callsForPeakRate(shape: SurgeShape, durationMinutes: number, peakPerMinute: number): number {
  return Math.max(1, Math.round((peakPerMinute * durationMinutes) / surgeCurve(shape).peakToMean));
}

export function planExercise(options: PlanOptions): PlannedCall[] {
  const random = seededRandom(options.seed);
  const calls = generateCalls({
    scenario: options.scenario,
    numCalls: options.numCalls,
    random,
    now: options.now,
    callNumber: options.callNumber,
    // Exercise calls are not grouped into incidents (docs/incidents.md): no simulated duplicates.
    duplicateShare: 0,
  });
  const curve = surgeCurve(options.shape);
  const durationMs = options.durationMinutes * 60_000;
  return calls.map((call, seq) => ({
    seq,
    dueOffsetMs: Math.min(durationMs, Math.floor(curve.quantile((seq + random()) / calls.length) * durationMs)),
    abandoned: random() < options.abandonedShare,
    call,
  }));
}
