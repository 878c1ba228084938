import type { Scenario } from "../scenarios/scenario-list";
import type { CentreIndex } from "../geocoding/centre/centre-index";
import type { CallPlacement } from "../geocoding/types";
import { generateCallsWithEvents } from "../simulation/generate";
import type { SimulatedCall } from "../vocabulary";
import { seededRandom } from "../simulation/random";
import { type LiveScript, planLiveScript } from "./live-script";
import { type SurgeShape, surgeCurve } from "./shapes";
import { EXERCISE_SUMMARY_TEMPLATES } from "./summary-templates";

/**
 * An exercise's calls, planned before it starts. Pure and deterministic per seed (call ids aside,
 * which never come from the seed): the content is the simulator's (lib/simulation) with summaries
 * of the exercise's own shapes, the due times follow the surge curve.
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
  placement: CallPlacement;
  /** How the call unfolds on the line; null for a call released finished (and every abandoned one). */
  live: LiveScript | null;
}

export interface PlanOptions {
  scenario: Scenario;
  shape: SurgeShape;
  durationMinutes: number;
  numCalls: number;
  abandonedShare: number;
  /** Share of answered calls released live (0 to 1). */
  liveShare: number;
  seed: number;
  now: Date;
  callNumber: () => number;
  /** The centre's own GIS data, when loaded: it places the addresses it knows. */
  centre?: CentreIndex;
}

/** Calls over the whole exercise for a peak rate (calls per exercise minute at the curve's peak). */
export function callsForPeakRate(shape: SurgeShape, durationMinutes: number, peakPerMinute: number): number {
  return Math.max(1, Math.round((peakPerMinute * durationMinutes) / surgeCurve(shape).peakToMean));
}

export function planExercise(options: PlanOptions): PlannedCall[] {
  const random = seededRandom(options.seed);
  const { calls, placements } = generateCallsWithEvents({
    scenario: options.scenario,
    numCalls: options.numCalls,
    random,
    now: options.now,
    callNumber: options.callNumber,
    // Exercise calls are not grouped into incidents (docs/incidents.md): no simulated duplicates.
    duplicateShare: 0,
    centre: options.centre,
    // Trainees dispatch exercise calls: their summaries claim no dispatch (docs/exercises.md).
    summaryTemplates: EXERCISE_SUMMARY_TEMPLATES,
  });
  const curve = surgeCurve(options.shape);
  const durationMs = options.durationMinutes * 60_000;
  // Live calls draw from a stream of their own: the rest of the plan is the same whatever the live share.
  const liveRandom = seededRandom(options.seed + LIVE_SEED_OFFSET);
  return calls.map((call, seq) => {
    const dueOffsetMs = Math.min(durationMs, Math.floor(curve.quantile((seq + random()) / calls.length) * durationMs));
    const abandoned = random() < options.abandonedShare;
    const released = liveRandom() < options.liveShare;
    const script = planLiveScript(call, liveRandom);
    return { seq, dueOffsetMs, abandoned, call, placement: placements[seq], live: released && !abandoned ? script : null };
  });
}

/** The live calls' random stream is the seed's, moved on by this (any fixed number would do). */
const LIVE_SEED_OFFSET = 0x11fe;
