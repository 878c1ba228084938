/**
 * The dispatch intervals report on 100,000 calls (issue 28, acceptance 4), in a scratch database:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/dispatch-intervals.ts
 *
 * Loads 100,000 calls with their status history (tests/support/dispatch-history.ts, the same
 * generator as tests/integration/reports-intervals.test.ts, INSERT ... SELECT generate_series as
 * bench/seed-calls.ts loads), then for real calls, the exercise and both, over the whole load and
 * over a window cutting through it: the report (lib/reports/intervals.ts, as the endpoint runs it)
 * against the independent SQL computation, every type and severity, to the second (in fact to
 * the microsecond); and the report's time (p50 of 10 runs). Exits 1 on any disagreement.
 */
import { intervalsReport } from "../lib/reports/intervals";
import type { IntervalsReport } from "../lib/reports/schema";
import {
  dispatchHistorySql,
  fixtureExerciseSql,
  INDEPENDENT_SCOPES,
  type IndependentFigures,
  independentIntervalsSql,
} from "../tests/support/dispatch-history";
import { withScratchClient } from "./scratch-database";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const EXERCISE = "bench_exercise";
const NEWEST = new Date("2026-11-01T00:00:00.000Z");

function disagreements(report: IntervalsReport, expected: IndependentFigures[]): string[] {
  const found: string[] = [];
  const byKey = new Map(report.by_type_and_severity.map((group) => [`${group.emergency_type}/${group.severity}`, group]));
  if (byKey.size !== expected.length) found.push(`${byKey.size} groups, expected ${expected.length}`);
  for (const row of expected) {
    const key = `${row.emergency_type}/${row.severity}`;
    const got = byKey.get(key);
    if (!got) {
      found.push(`${key} missing`);
      continue;
    }
    if (got.calls !== row.calls || got.dispatched !== row.dispatched || got.within_60s !== row.within_60s) {
      found.push(`${key}: counts ${got.calls}/${got.dispatched}/${got.within_60s}, expected ${row.calls}/${row.dispatched}/${row.within_60s}`);
    }
    for (const [name, mine, theirs] of [["p50", got.p50_seconds, row.p50], ["p90", got.p90_seconds, row.p90], ["max", got.max_seconds, row.max]] as const) {
      if ((mine === null) !== (theirs === null) || (mine !== null && Math.abs(mine - theirs!) >= 1e-6)) found.push(`${key}: ${name} ${mine}, expected ${theirs}`);
    }
  }
  return found;
}

async function main(): Promise<void> {
  await withScratchClient(server, async (client) => {
    const started = performance.now();
    await client.query(fixtureExerciseSql(EXERCISE));
    for (let first = 1; first <= ROWS; first += 50_000) {
      for (const sql of dispatchHistorySql({ prefix: "bench_", first, last: Math.min(first + 49_999, ROWS), newest: NEWEST, exerciseId: EXERCISE })) {
        await client.query(sql);
      }
    }
    await client.query("VACUUM ANALYZE");
    const { rows: [loaded] } = await client.query("SELECT (SELECT count(*)::int FROM calls) AS calls, (SELECT count(*)::int FROM call_status_changes) AS changes");
    console.log(`loaded ${loaded.calls} calls and ${loaded.changes} status changes in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const spanMs = ROWS * 1700;
    const windows = [
      { label: "whole load", from: new Date(NEWEST.getTime() - spanMs - 60_000), to: NEWEST },
      { label: "middle half", from: new Date(NEWEST.getTime() - spanMs * 0.75), to: new Date(NEWEST.getTime() - spanMs * 0.25) },
    ];
    let failed = false;
    console.log("| calls | window | calls counted | groups | agree | report p50 ms | independent SQL ms |");
    console.log("|---|---|---|---|---|---|---|");
    for (const calls of ["real", "exercise", "both"] as const) {
      for (const window of windows) {
        const values = { from: window.from.toISOString(), to: window.to.toISOString(), calls, exercise_id: EXERCISE };
        const times: number[] = [];
        let report: IntervalsReport | undefined;
        for (let run = 0; run < 11; run++) {
          const begun = performance.now();
          report = await intervalsReport(values);
          if (run > 0) times.push(performance.now() - begun);
        }
        times.sort((a, b) => a - b);
        const begun = performance.now();
        const { rows } = await client.query<IndependentFigures>(independentIntervalsSql(INDEPENDENT_SCOPES[calls](EXERCISE)), [window.from, window.to]);
        const independentMs = performance.now() - begun;
        const found = disagreements(report!, rows);
        failed ||= found.length > 0;
        for (const line of found.slice(0, 10)) console.error(`  ${calls}, ${window.label}: ${line}`);
        console.log(
          `| ${calls} | ${window.label} | ${report!.overall.calls} | ${rows.length} | ${found.length === 0 ? "yes" : `NO (${found.length})`} | ${percentile(times, 0.5).toFixed(1)} | ${independentMs.toFixed(0)} |`,
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
