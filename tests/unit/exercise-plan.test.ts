import { describe, expect, it } from "vitest";
import { callsForPeakRate, planExercise } from "@/lib/exercises/plan";
import { parseCreateExercise } from "@/lib/exercises/schema";
import { SURGE_SHAPE_NAMES, surgeCurve } from "@/lib/exercises/shapes";
import { findScenario } from "@/lib/scenarios/scenario-list";
import { isTemplateSummary } from "../support/simulated-calls";

const scenario = findScenario("earthquake_sf")!;
let counter = 0;
const plan = (shape: (typeof SURGE_SHAPE_NAMES)[number], numCalls: number, seed: number, durationMinutes = 60, liveShare = 0) =>
  planExercise({ scenario, shape, durationMinutes, numCalls, abandonedShare: 0.15, liveShare, seed, now: new Date(0), callNumber: () => ++counter });
const strip = (calls: ReturnType<typeof plan>) => calls.map(({ call, ...rest }) => ({ ...rest, call: { ...call, call_id: "" } }));

describe("exercise planning", () => {
  it.each(SURGE_SHAPE_NAMES)("%s: due times fill every minute to within two calls of the curve", (shape) => {
    const calls = plan(shape, 2000, 4);
    const curve = surgeCurve(shape);
    for (let minute = 0; minute < 60; minute++) {
      const due = calls.filter((call) => Math.floor(call.dueOffsetMs / 60_000) === minute).length;
      const planned = 2000 * (curve.cumulative((minute + 1) / 60) - curve.cumulative(minute / 60));
      expect(Math.abs(due - planned), `minute ${minute}`).toBeLessThan(2);
    }
    expect(calls.every((call) => call.dueOffsetMs >= 0 && call.dueOffsetMs <= 3_600_000)).toBe(true);
  });

  it("the shapes differ where they should: sudden onset peaks first, double wave twice, ramp in between", () => {
    const share = (shape: (typeof SURGE_SHAPE_NAMES)[number], from: number, to: number) =>
      surgeCurve(shape).cumulative(to) - surgeCurve(shape).cumulative(from);
    expect(share("sudden-onset", 0, 0.1)).toBeGreaterThan(share("ramp-peak-decay", 0, 0.1));
    expect(share("ramp-peak-decay", 0.2, 0.4)).toBeGreaterThan(share("ramp-peak-decay", 0, 0.2));
    expect(share("double-wave", 0.6, 0.8)).toBeGreaterThan(share("double-wave", 0.4, 0.55));
    expect(share("steady", 0.3, 0.4)).toBeCloseTo(0.1, 6);
  });

  it("is deterministic per seed (ids aside) and abandons about the asked share", () => {
    expect(strip(plan("double-wave", 300, 9))).toEqual(strip(plan("double-wave", 300, 9)));
    expect(strip(plan("double-wave", 300, 10))).not.toEqual(strip(plan("double-wave", 300, 9)));
    const abandoned = plan("steady", 4000, 2).filter((call) => call.abandoned).length / 4000;
    expect(abandoned).toBeGreaterThan(0.13);
    expect(abandoned).toBeLessThan(0.17);
  });

  it("summaries speak as callers and agents do: each names its description and address, none is one of /simulate's three shapes", () => {
    const calls = plan("steady", 1000, 3);
    for (const { call } of calls) {
      expect(call.summary).toContain(`${call.description} at ${call.location.address}. `);
      expect(isTemplateSummary(call), call.summary).toBe(false);
    }
    expect(new Set(calls.map(({ call }) => call.summary.split(" ")[0])).size).toBe(3);
  });

  it("turns a peak rate into calls: steady peak x duration, peaked shapes fewer", () => {
    expect(callsForPeakRate("steady", 60, 10)).toBe(600);
    expect(callsForPeakRate("sudden-onset", 60, 10)).toBeLessThan(600);
    expect(parseCreateExercise({ peak_calls_per_minute: 10 })).toMatchObject({ shape: "ramp-peak-decay", duration_minutes: 60, speed: 1 });
  });

  it("live calls: about the asked share of answered calls, located 15-60 s in, ending at their duration; the rest of the plan unchanged", () => {
    const live = plan("steady", 4000, 5, 60, 0.4);
    const scripted = live.filter((call) => call.live !== null);
    expect(scripted.every((call) => !call.abandoned)).toBe(true);
    const share = scripted.length / live.filter((call) => !call.abandoned).length;
    expect(share).toBeGreaterThan(0.37);
    expect(share).toBeLessThan(0.43);
    for (const { call, live: script } of scripted) {
      const [answered, located, middle, ended] = script!.steps;
      expect(answered).toMatchObject({ at_ms: 0, reports: false, ends: false });
      expect(answered.turns.length).toBeGreaterThan(0);
      expect(located.reports).toBe(true);
      expect(located.at_ms).toBeGreaterThanOrEqual(15_000);
      expect(located.at_ms).toBeLessThanOrEqual(Math.min(60_000, call.duration_secs * 1000));
      expect(located.turns.at(-1)!.text).toBe(call.location.address);
      expect(middle.at_ms).toBeGreaterThan(located.at_ms);
      expect(ended).toMatchObject({ at_ms: call.duration_secs * 1000, ends: true });
      // Each step's conversation is the one before it and more.
      expect(middle.turns.slice(0, located.turns.length)).toEqual(located.turns);
      expect(ended.turns.slice(0, middle.turns.length)).toEqual(middle.turns);
      expect(ended.turns.every((turn) => turn.time_in_call_secs! <= call.duration_secs)).toBe(true);
    }
    // Same seed: the same live calls; and the calls, due times and abandonments do not depend on the live share.
    expect(strip(plan("steady", 4000, 5, 60, 0.4))).toEqual(strip(live));
    expect(strip(live).map((call) => ({ ...call, live: null }))).toEqual(strip(plan("steady", 4000, 5, 60, 0)));
  });
});
