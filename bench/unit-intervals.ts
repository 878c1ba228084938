/**
 * Intervals per unit on 10,000 assignments (issue 39, acceptance 2), in a scratch database:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/unit-intervals.ts
 *
 * Generates 200 units and 10,000 assignments with their moves here (a seeded generator: units
 * turned out, cancelled on the way, never en route, en route only after arriving, never moved, the
 * last still open), loads them in multi-row INSERTs (tests/support/unit-history.ts), then for real
 * incidents, the exercise's and both, over the whole load, its middle half and one hour: the
 * report (intervalsReport, as the endpoint runs it) against the same figures computed here in
 * JavaScript from the generated rows, per unit, per type and overall (counts exactly, seconds to
 * the microsecond); and the report's time (p50 of 10 runs after one). Exits 1 on any disagreement.
 */
import { intervalsReport } from "../lib/reports/intervals";
import type { UnitInterval, UnitIntervalFigures, UnitIntervals } from "../lib/reports/schema";
import { EMS_UNIT_TYPES, UNIT_TYPES } from "../lib/units/states";
import { type HistoryAssignment, type HistoryIncident, type HistoryUnit, unitHistorySql } from "../tests/support/unit-history";
import { withScratchClient } from "./scratch-database";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const UNITS = 200;
const ASSIGNMENTS = Number(process.env.BENCH_ASSIGNMENTS ?? 10_000);
const EXERCISE = "bench_exercise";
const START = Date.parse("2026-10-01T00:00:00.000Z");
const TARGETS = { turnoutEms: 60, turnoutFire: 80, travel: 240 };

/** mulberry32: the same load on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Generated {
  units: HistoryUnit[];
  incidents: (HistoryIncident & { kind: "real" | "exercise" | "simulation" })[];
  assignments: HistoryAssignment[];
}

function generate(): Generated {
  const next = random(39);
  const between = (low: number, high: number) => Math.round(low + next() * (high - low));
  const units: HistoryUnit[] = Array.from({ length: UNITS }, (_, index) => ({
    id: `bench_unit_${index}`,
    callSign: `U${index}`,
    type: UNIT_TYPES[index % UNIT_TYPES.length],
  }));
  const incidents: Generated["incidents"] = [];
  const assignments: HistoryAssignment[] = [];
  const perUnit = ASSIGNMENTS / UNITS;
  for (const unit of units) {
    let clock = START + between(0, 3_600_000);
    for (let n = 0; n < perUnit; n++) {
      const id = `bench_incident_${assignments.length}`;
      const draw = next();
      const kind = draw < 0.8 ? "real" : draw < 0.95 ? "exercise" : "simulation";
      incidents.push({ id, kind, exerciseId: kind === "exercise" ? EXERCISE : null, simulation: kind !== "real", at: new Date(clock) });
      const turnout = between(3_000, 150_000);
      const travel = between(20_000, 600_000);
      const path = next();
      const moves: [string, number][] =
        path < 0.75 ? [["en_route", turnout], ["on_scene", turnout + travel], ["transporting", turnout + travel + 300_000]]
        : path < 0.83 ? [["en_route", turnout]] // cancelled on the way
        : path < 0.88 ? [["on_scene", travel]] // never reported en route
        : path < 0.92 ? [["on_scene", travel], ["en_route", travel + turnout]] // en route only after arriving
        : path < 0.96 ? [] // never moved
        : [["en_route", turnout], ["on_scene", turnout + travel], ["en_route", turnout + travel + 60_000], ["on_scene", turnout + 2 * travel]];
      const last = moves.at(-1)?.[1] ?? 0;
      const open = n === perUnit - 1 && next() < 0.5;
      const cleared = clock + last + between(1_000, 1_800_000);
      assignments.push({
        unitId: unit.id,
        incidentId: id,
        at: new Date(clock),
        clearedAt: open ? null : new Date(cleared),
        moves: moves.map(([state, offset]) => ({ state, at: new Date(clock + offset) })),
      });
      clock = cleared + between(1_000, 3_600_000);
    }
  }
  return { units, incidents, assignments };
}

/** PostgreSQL's percentile_cont over values sorted ascending. */
function percentileCont(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

interface Timed {
  unit: HistoryUnit;
  turnout: number | null;
  travel: number | null;
  response: number | null;
  turnoutTarget: number;
}

/** The figures written apart from lib/reports/unit-intervals.ts: each assignment's own generated moves. */
function independent(data: Generated, kinds: readonly string[], from: number, to: number) {
  const unitOf = new Map(data.units.map((unit) => [unit.id, unit]));
  const kindOf = new Map(data.incidents.map((incident) => [incident.id, incident.kind]));
  const timed: Timed[] = [];
  for (const assignment of data.assignments) {
    const at = assignment.at.getTime();
    if (at < from || at > to || !kinds.includes(kindOf.get(assignment.incidentId)!)) continue;
    const first = (state: string) => assignment.moves.find((move) => move.state === state)?.at.getTime() ?? null;
    const onScene = first("on_scene");
    const enRouteAny = first("en_route");
    const enRoute = enRouteAny !== null && (onScene === null || enRouteAny <= onScene) ? enRouteAny : null;
    const unit = unitOf.get(assignment.unitId)!;
    timed.push({
      unit,
      turnout: enRoute === null ? null : (enRoute - at) / 1000,
      travel: enRoute === null || onScene === null ? null : (onScene - enRoute) / 1000,
      response: onScene === null ? null : (onScene - at) / 1000,
      turnoutTarget: (EMS_UNIT_TYPES as readonly string[]).includes(unit.type) ? TARGETS.turnoutEms : TARGETS.turnoutFire,
    });
  }
  const interval = (rows: Timed[], pick: (row: Timed) => number | null, target: (row: Timed) => number): UnitInterval => {
    const measured = rows.filter((row) => pick(row) !== null);
    const values = measured.map((row) => pick(row)!).sort((a, b) => a - b);
    const within = measured.filter((row) => pick(row)! <= target(row)).length;
    return {
      measured: values.length,
      p50_seconds: percentileCont(values, 0.5),
      p90_seconds: percentileCont(values, 0.9),
      within_target: within,
      within_target_share: values.length > 0 ? within / values.length : null,
    };
  };
  const figures = (rows: Timed[]): UnitIntervalFigures => ({
    assignments: rows.length,
    // The bench's history holds no unit-initiated assignment.
    unit_initiated: 0,
    turnout: interval(rows, (row) => row.turnout, (row) => row.turnoutTarget),
    travel: interval(rows, (row) => row.travel, () => TARGETS.travel),
    response: interval(rows, (row) => row.response, (row) => row.turnoutTarget + TARGETS.travel),
  });
  const groupBy = (key: (row: Timed) => string) => {
    const groups = new Map<string, Timed[]>();
    for (const row of timed) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
    return groups;
  };
  return {
    overall: figures(timed),
    byType: new Map([...groupBy((row) => row.unit.type)].map(([type, rows]) => [type, figures(rows)])),
    byUnit: new Map([...groupBy((row) => row.unit.id)].map(([id, rows]) => [id, figures(rows)])),
  };
}

function disagreements(label: string, got: UnitIntervalFigures | undefined, expected: UnitIntervalFigures): string[] {
  if (!got) return [`${label}: missing`];
  const found: string[] = [];
  if (got.assignments !== expected.assignments) found.push(`${label}: ${got.assignments} assignments, expected ${expected.assignments}`);
  for (const name of ["turnout", "travel", "response"] as const) {
    for (const key of ["measured", "within_target", "p50_seconds", "p90_seconds", "within_target_share"] as const) {
      const [mine, theirs] = [got[name][key], expected[name][key]];
      if ((mine === null) !== (theirs === null) || (mine !== null && Math.abs(mine - theirs!) >= 1e-6)) found.push(`${label} ${name} ${key}: ${mine}, expected ${theirs}`);
    }
  }
  return found;
}

function compare(report: UnitIntervals, expected: ReturnType<typeof independent>): string[] {
  const found = disagreements("overall", report.overall, expected.overall);
  if (report.by_unit_type.length !== expected.byType.size) found.push(`${report.by_unit_type.length} types, expected ${expected.byType.size}`);
  for (const [type, figures] of expected.byType) found.push(...disagreements(type, report.by_unit_type.find((group) => group.unit_type === type), figures));
  if (report.by_unit.length !== expected.byUnit.size) found.push(`${report.by_unit.length} units, expected ${expected.byUnit.size}`);
  for (const [id, figures] of expected.byUnit) found.push(...disagreements(id, report.by_unit.find((unit) => unit.unit_id === id), figures));
  return found;
}

async function main(): Promise<void> {
  const data = generate();
  await withScratchClient(server, async (client) => {
    const started = performance.now();
    await client.query(`
      INSERT INTO exercises (id, scenario, duration_minutes, planned_calls, shape, speed, abandoned_share, seed, state)
      VALUES ('${EXERCISE}', 'la_wildfire', 60, 0, 'steady', 1, 0, 1, 'completed')`);
    for (const sql of unitHistorySql(data)) await client.query(sql);
    await client.query("VACUUM ANALYZE");
    const { rows: [loaded] } = await client.query(
      "SELECT (SELECT count(*)::int FROM unit_assignments) AS assignments, (SELECT count(*)::int FROM unit_state_changes) AS changes",
    );
    console.log(`loaded ${loaded.assignments} assignments and ${loaded.changes} state changes in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const last = Math.max(...data.assignments.map((assignment) => assignment.at.getTime()));
    const span = last - START;
    const windows = [
      { label: "whole load", from: START, to: last },
      { label: "middle half", from: START + span * 0.25, to: START + span * 0.75 },
      { label: "one hour", from: START + span * 0.5, to: START + span * 0.5 + 3_600_000 },
    ];
    const KINDS = { real: ["real"], exercise: ["exercise"], both: ["real", "exercise"] } as const;
    let failed = false;
    console.log("| calls | window | assignments | units | agree | report p50 ms |");
    console.log("|---|---|---|---|---|---|");
    for (const calls of ["real", "exercise", "both"] as const) {
      for (const window of windows) {
        const values = { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString(), calls, exercise_id: EXERCISE };
        const times: number[] = [];
        let report: UnitIntervals | undefined;
        for (let run = 0; run < 11; run++) {
          const begun = performance.now();
          report = (await intervalsReport(values)).units;
          if (run > 0) times.push(performance.now() - begun);
        }
        times.sort((a, b) => a - b);
        const found = compare(report!, independent(data, KINDS[calls], window.from, window.to));
        failed ||= found.length > 0;
        for (const line of found.slice(0, 10)) console.error(`  ${calls}, ${window.label}: ${line}`);
        console.log(
          `| ${calls} | ${window.label} | ${report!.overall.assignments} | ${report!.by_unit.length} | ${found.length === 0 ? "yes" : `NO (${found.length})`} | ${percentile(times, 0.5).toFixed(1)} |`,
        );
      }
    }
    if (failed) process.exitCode = 1;
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
