import { beforeAll, describe, expect, it } from "vitest";
import { GET as reportRoute } from "@/app/api/reports/intervals/route";
import { getDb } from "@/lib/db/client";
import { computeDebrief } from "@/lib/exercises/debrief";
import { type IntervalsReport, intervalsReportSchema, type UnitInterval, type UnitIntervalFigures } from "@/lib/reports/schema";
import { unitIntervals } from "@/lib/reports/unit-intervals";
import { apiRequest } from "../support/auth";
import { type HistoryAssignment, unitHistorySql } from "../support/unit-history";

/**
 * Intervals per unit (docs/reports.md, "Intervals per unit") on a fixture of 20 assignments whose
 * figures are worked out by hand below (percentile_cont: the value at position (n - 1) x p of the
 * sorted values, interpolated), plus one before the window and one of an exercise.
 */
const run = `uiv${Date.now().toString(36)}`;
const EXERCISE = `${run}_exercise`;
const T0 = new Date("2024-07-01T10:00:00.000Z");
const FROM = T0.toISOString();
const TO = new Date(T0.getTime() + 4 * 3_600_000).toISOString();
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const UNITS = [
  { id: `${run}_a1`, callSign: `${run}-A1`, type: "ambulance" },
  { id: `${run}_a2`, callSign: `${run}-A2`, type: "ambulance" },
  { id: `${run}_e1`, callSign: `${run}-E1`, type: "engine" },
  { id: `${run}_e2`, callSign: `${run}-E2`, type: "engine" },
  { id: `${run}_p1`, callSign: `${run}-P1`, type: "patrol" },
];
const [A1, A2, E1, E2, P1] = UNITS.map((unit) => unit.id);

/**
 * Assignment `k` starts at T0 + k x 10 min; moves are seconds after that start; `cleared` too
 * (null: still open). Each comment: turnout, travel, response.
 */
function assignment(k: number, unitId: string, moves: [string, number][], cleared: number | null = 590, incident = `${run}_i${k}`): HistoryAssignment {
  const start = k * 600;
  return {
    unitId,
    incidentId: incident,
    at: at(start),
    clearedAt: cleared === null ? null : at(start + cleared),
    moves: moves.map(([state, seconds]) => ({ state, at: at(start + seconds) })),
  };
}

const ASSIGNMENTS: HistoryAssignment[] = [
  assignment(1, A1, [["en_route", 30], ["on_scene", 230]]), // 30, 200, 230
  assignment(2, A1, [["en_route", 50], ["on_scene", 300]]), // 50, 250, 300
  assignment(3, A1, [["en_route", 70], ["on_scene", 170]]), // 70, 100, 170
  assignment(4, A1, [["en_route", 40]], 100), // 40, cancelled on the way
  assignment(5, A2, [["on_scene", 120]]), // -, -, 120 (never reported en route)
  assignment(6, A2, [["en_route", 60], ["on_scene", 300]]), // 60, 240, 300: each on its target
  assignment(7, A2, [["en_route", 61], ["on_scene", 302]]), // 61, 241, 302: each a second over
  assignment(8, A2, [], null), // dispatched, still open, never moved
  assignment(9, E1, [["en_route", 80], ["on_scene", 240]]), // 80, 160, 240
  assignment(10, E1, [["en_route", 90], ["on_scene", 390]]), // 90, 300, 390
  assignment(11, E1, [["on_scene", 200], ["en_route", 500]]), // -, -, 200 (en route only after arriving)
  assignment(12, E1, [["en_route", 20], ["on_scene", 200], ["en_route", 400], ["on_scene", 580]]), // 20, 180, 200 (the first of each)
  // E2 is sent elsewhere on its way (confirmed) at 100 s: its first assignment closes then.
  assignment(13, E2, [["en_route", 30]], 100), // 30, cancelled
  { ...assignment(13, E2, [["en_route", 145], ["on_scene", 345]], 590, `${run}_i14`), at: at(13 * 600 + 100) }, // 45, 200, 245
  assignment(15, E2, [["en_route", 70], ["on_scene", 300]]), // 70, 230, 300
  assignment(16, E2, [["en_route", 85], ["on_scene", 330]]), // 85, 245, 330
  assignment(17, P1, [["en_route", 10], ["on_scene", 130]]), // 10, 120, 130
  assignment(18, P1, [["en_route", 100], ["on_scene", 200]]), // 100, 100, 200
  assignment(19, P1, [["en_route", 75], ["on_scene", 375]]), // 75, 300, 375
  assignment(20, P1, [["en_route", 5], ["on_scene", 40]]), // 5, 35, 40
];
// Not in a real-calls report of the window: an exercise's unit, and one sent before the window.
const EXERCISE_ASSIGNMENT = assignment(21, A1, [["en_route", 25], ["on_scene", 240]]); // 25, 215, 240
const EARLY_ASSIGNMENT = assignment(-6, E1, [["en_route", 10], ["on_scene", 20]]);

const figures = (assignments: number, turnout: UnitInterval, travel: UnitInterval, response: UnitInterval): UnitIntervalFigures => ({
  assignments,
  // The fixture's assignments are all dispatched ones (unit-initiated ones: call-taking.test.ts).
  unit_initiated: 0,
  turnout,
  travel,
  response,
});
const interval = (measured: number, p50: number | null, p90: number | null, within: number): UnitInterval => ({
  measured,
  p50_seconds: p50,
  p90_seconds: p90,
  within_target: within,
  within_target_share: measured === 0 ? null : within / measured,
});

// Targets: turnout 60 s (ambulances) or 80 s, travel 240 s, response 300 s or 320 s.
const EXPECTED_BY_UNIT = {
  A1: figures(4, interval(4, 45, 64, 3), interval(3, 200, 240, 2), interval(3, 230, 286, 3)),
  A2: figures(4, interval(2, 60.5, 60.9, 1), interval(2, 240.5, 240.9, 1), interval(3, 300, 301.6, 2)),
  E1: figures(4, interval(3, 80, 88, 2), interval(3, 180, 276, 2), interval(4, 220, 345, 3)),
  E2: figures(4, interval(4, 57.5, 80.5, 3), interval(3, 230, 242, 2), interval(3, 300, 324, 2)),
  P1: figures(4, interval(4, 42.5, 92.5, 3), interval(4, 110, 246, 3), interval(4, 165, 322.5, 3)),
};
const EXPECTED_BY_TYPE = {
  ambulance: figures(8, interval(6, 55, 65.5, 4), interval(5, 240, 246.4, 3), interval(6, 265, 301, 5)),
  engine: figures(8, interval(7, 70, 87, 5), interval(6, 215, 272.5, 4), interval(7, 245, 354, 5)),
  patrol: EXPECTED_BY_UNIT.P1,
};
const EXPECTED_OVERALL = figures(20, interval(17, 60, 87, 12), interval(15, 200, 280, 10), interval(17, 240, 348, 13));

/** Seconds compared to the microsecond (percentile_cont's float arithmetic), counts exactly. */
function expectFigures(got: UnitIntervalFigures, expected: UnitIntervalFigures, label: string) {
  expect(got.assignments, label).toBe(expected.assignments);
  for (const name of ["turnout", "travel", "response"] as const) {
    const [mine, theirs] = [got[name], expected[name]];
    expect({ measured: mine.measured, within: mine.within_target }, `${label} ${name}`).toEqual({ measured: theirs.measured, within: theirs.within_target });
    for (const key of ["p50_seconds", "p90_seconds", "within_target_share"] as const) {
      if (theirs[key] === null) expect(mine[key], `${label} ${name} ${key}`).toBeNull();
      else expect(Math.abs(mine[key]! - theirs[key]!), `${label} ${name} ${key}: ${mine[key]}`).toBeLessThan(1e-6);
    }
  }
}

async function report(query: string): Promise<{ status: number; body: IntervalsReport }> {
  const response = await reportRoute(apiRequest(`http://localhost/api/reports/intervals?${query}`), undefined);
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  const db = await getDb();
  await db.$executeRawUnsafe(`
    INSERT INTO exercises (id, scenario, duration_minutes, planned_calls, shape, speed, abandoned_share, seed, state, started_at, ended_at)
    VALUES ('${EXERCISE}', 'la_wildfire', 240, 0, 'steady', 1, 0, 1, 'completed', '${FROM}', '${TO}')`);
  const all = [...ASSIGNMENTS, EXERCISE_ASSIGNMENT, EARLY_ASSIGNMENT];
  const incidents = [...new Set(all.map((row) => row.incidentId))].map((id) => ({
    id,
    exerciseId: id === EXERCISE_ASSIGNMENT.incidentId ? EXERCISE : null,
    at: T0,
  }));
  for (const sql of unitHistorySql({ units: UNITS, incidents, assignments: all })) await db.$executeRawUnsafe(sql);
});

describe("intervals per unit (GET /api/reports/intervals, units)", () => {
  it("equals the hand-worked figures of 20 assignments, per unit, per type and overall", async () => {
    const { status, body } = await report(`from=${FROM}&to=${TO}`);
    expect(status).toBe(200);
    intervalsReportSchema.parse(body);
    expect(body.units.targets).toEqual({ turnout_ems_seconds: 60, turnout_fire_seconds: 80, travel_seconds: 240 });
    expectFigures(body.units.overall, EXPECTED_OVERALL, "overall");
    expect(body.units.by_unit_type.map((group) => group.unit_type)).toEqual(["ambulance", "engine", "patrol"]);
    for (const group of body.units.by_unit_type) expectFigures(group, EXPECTED_BY_TYPE[group.unit_type as keyof typeof EXPECTED_BY_TYPE], group.unit_type);
    expect(body.units.by_unit.map((unit) => unit.call_sign)).toEqual(UNITS.map((unit) => unit.callSign));
    for (const [index, unit] of body.units.by_unit.entries()) {
      expect({ id: unit.unit_id, type: unit.unit_type }).toEqual({ id: UNITS[index].id, type: UNITS[index].type });
      expectFigures(unit, Object.values(EXPECTED_BY_UNIT)[index], unit.call_sign);
    }
  });

  it("counts the exercise's unit only for its exercise, and the debrief shows the same figures", async () => {
    const { body } = await report(`from=${FROM}&to=${TO}&calls=exercise&exercise_id=${EXERCISE}`);
    const one = figures(1, interval(1, 25, 25, 1), interval(1, 215, 215, 1), interval(1, 240, 240, 1));
    expectFigures(body.units.overall, one, "exercise");
    expect(body.units.by_unit.map((unit) => unit.unit_id)).toEqual([A1]);
    const debrief = await computeDebrief(EXERCISE);
    expect(debrief.unit_intervals).toEqual(body.units);
    const both = await report(`from=${FROM}&to=${TO}&calls=both&exercise_id=${EXERCISE}`);
    expect(both.body.units.overall.assignments).toBe(21);
  });

  it("counts what was sent in the window: the early assignment only in a window holding it", async () => {
    const { body } = await report(`from=${at(-3600).toISOString()}&to=${at(-1).toISOString()}`);
    expectFigures(body.units.overall, figures(1, interval(1, 10, 10, 1), interval(1, 10, 10, 1), interval(1, 20, 20, 1)), "early");
  });

  it("holds each unit to the targets it is given (the settings)", async () => {
    const db = await getDb();
    const units = await unitIntervals(db, { calls: "real", from: new Date(FROM), to: new Date(TO) }, {
      turnoutEmsSeconds: 45,
      turnoutFireSeconds: 50,
      travelSeconds: 200,
    });
    expect(units.targets).toEqual({ turnout_ems_seconds: 45, turnout_fire_seconds: 50, travel_seconds: 200 });
    const within = (name: string) => units.by_unit.find((unit) => unit.unit_id === name)!;
    // A1 turnout 30, 50, 70, 40 against 45; P1 5, 10, 75, 100 against 50.
    expect(within(A1).turnout.within_target).toBe(2);
    expect(within(P1).turnout.within_target).toBe(2);
    // Travel against 200: 35, 100, 100, 120, 160, 180, 200, 200 of the 15.
    expect(units.overall.travel.within_target).toBe(8);
    // Response against 245 (A1: 230, 300, 170) and 250 (E1: 240, 390, 200, 200).
    expect(within(A1).response.within_target).toBe(2);
    expect(within(E1).response.within_target).toBe(3);
  });
});
