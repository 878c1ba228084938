import { apiRequest, testAdmin } from "@/tests/support/auth";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as csvRoute } from "@/app/api/reports/intervals.csv/route";
import { GET as reportRoute } from "@/app/api/reports/intervals/route";
import { getDb } from "@/lib/db/client";
import { EXERCISE_END } from "@/lib/calls/write/write-calls";
import { createExercise } from "@/lib/exercises/create";
import { computeDebrief } from "@/lib/exercises/debrief";
import { getExercise } from "@/lib/exercises/list";
import { parseCreateExercise } from "@/lib/exercises/schema";
import { type IntervalsReport, intervalsReportSchema } from "@/lib/reports/schema";
import { manualClock, runFor } from "../support/exercise-clock";
import {
  dispatchHistorySql,
  fixtureExerciseSql,
  INDEPENDENT_SCOPES,
  type IndependentFigures,
  independentIntervalsSql,
} from "../support/dispatch-history";

/**
 * GET /api/reports/intervals (docs/reports.md) against the same figures computed apart in SQL
 * (tests/support/dispatch-history.ts), and the exercise debrief against the report.
 */
const run = `ivl${Date.now().toString(36)}`;
const EXERCISE = `${run}_exercise`;
const NEWEST = new Date("2024-06-01T12:00:00.000Z");
const CALLS = 6000;
// A window cutting through the fixture (row n arrives about n x 1.7 s before NEWEST).
const FROM = new Date(NEWEST.getTime() - 9000 * 1000);
const TO = new Date(NEWEST.getTime() - 600 * 1000 - 123);

async function report(query: string): Promise<{ status: number; body: IntervalsReport & Record<string, unknown> }> {
  const response = await reportRoute(apiRequest(`http://localhost/api/reports/intervals?${query}`), undefined);
  return { status: response.status, body: await response.json() };
}

const windowQuery = `from=${FROM.toISOString()}&to=${TO.toISOString()}`;

function expectAgreement(figures: IntervalsReport["by_type_and_severity"], expected: IndependentFigures[]) {
  expect(figures.map(({ emergency_type, severity }) => `${emergency_type}/${severity}`)).toEqual(
    expected.map(({ emergency_type, severity }) => `${emergency_type}/${severity}`),
  );
  for (const [index, row] of expected.entries()) {
    const got = figures[index];
    const label = `${row.emergency_type}/${row.severity}`;
    expect({ calls: got.calls, dispatched: got.dispatched, within_60s: got.within_60s }, label).toEqual({
      calls: row.calls,
      dispatched: row.dispatched,
      within_60s: row.within_60s,
    });
    // To the second (and in fact to the microsecond: the same instants).
    for (const [mine, theirs] of [[got.p50_seconds, row.p50], [got.p90_seconds, row.p90], [got.max_seconds, row.max]] as const) {
      if (theirs === null) expect(mine, label).toBeNull();
      else expect(Math.abs(mine! - theirs), label).toBeLessThan(1e-6);
    }
    expect(got.within_60s_share, label).toBeCloseTo(row.within_60s / row.calls, 12);
  }
}

beforeAll(async () => {
  const db = await getDb();
  await db.$executeRawUnsafe(fixtureExerciseSql(EXERCISE));
  for (const sql of dispatchHistorySql({ prefix: `${run}_`, first: 1, last: CALLS, newest: NEWEST, exerciseId: EXERCISE })) {
    await db.$executeRawUnsafe(sql);
  }
});

describe("GET /api/reports/intervals", () => {
  for (const calls of ["real", "exercise", "both"] as const) {
    it(`agrees with an independent SQL computation for every type and severity (calls=${calls})`, async () => {
      const { status, body } = await report(`${windowQuery}&calls=${calls}&exercise_id=${EXERCISE}`);
      expect(status).toBe(200);
      intervalsReportSchema.parse(body);
      const db = await getDb();
      // The reference computation is the test's, a plain scan with no index of the product's: the
      // app's statement timeout (DB_STATEMENT_TIMEOUT_MS) is not its bound, and on a loaded two-core
      // machine it ran past it.
      const expected = await db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 0");
        return tx.$queryRawUnsafe<IndependentFigures[]>(independentIntervalsSql(INDEPENDENT_SCOPES[calls](EXERCISE)), FROM, TO);
      }, { timeout: 120_000 });
      expect(expected.length).toBe(18); // six types x three severities, each with calls
      const sorted = [...body.by_type_and_severity].sort((a, b) =>
        a.emergency_type === b.emergency_type ? a.severity.localeCompare(b.severity) : a.emergency_type.localeCompare(b.emergency_type),
      );
      expectAgreement(sorted, expected);
      // The fixture has calls of every kind: dispatched fast, slow, never.
      expect(body.overall.dispatched).toBeLessThan(body.overall.calls);
      expect(body.overall.within_60s).toBeGreaterThan(0);
      expect(body.overall.within_60s).toBeLessThan(body.overall.dispatched);
      // Per severity and overall are the same calls summed.
      expect(body.overall.calls).toBe(expected.reduce((sum, row) => sum + row.calls, 0));
      expect(body.by_severity.map((group) => group.severity)).toEqual(["critical", "high", "moderate"]);
      for (const group of body.by_severity) {
        expect(group.calls).toBe(expected.filter((row) => row.severity === group.severity).reduce((sum, row) => sum + row.calls, 0));
        const rows = expected.filter((row) => row.severity === group.severity);
        expect(group.dispatched).toBe(rows.reduce((sum, row) => sum + row.dispatched, 0));
        expect(group.within_60s).toBe(rows.reduce((sum, row) => sum + row.within_60s, 0));
      }
      expect(body).toMatchObject({ from: FROM.toISOString(), to: TO.toISOString(), calls, exercise_id: calls === "real" ? null : EXERCISE });
    });
  }

  it("reads exercise_id alone as calls=exercise, and counts nothing outside the window", async () => {
    const alone = await report(`${windowQuery}&exercise_id=${EXERCISE}`);
    const explicit = await report(`${windowQuery}&calls=exercise&exercise_id=${EXERCISE}`);
    expect(alone.body).toEqual(explicit.body);
    const empty = await report(`from=2001-01-01&to=2001-01-02`);
    expect(empty.body.overall).toEqual({
      calls: 0, dispatched: 0, p50_seconds: null, p90_seconds: null, max_seconds: null, within_60s: 0, within_60s_share: null,
      located: 0, location_p50_seconds: null, location_p90_seconds: null,
    });
    expect(empty.body.by_type_and_severity).toEqual([]);
  });

  it("answers the documented 400 for a bad window or filter", async () => {
    for (const [query, label] of [
      ["from=2024-06-02&to=2024-06-01", "Invalid date range"],
      ["from=yesterday", "Invalid date format"],
      ["to=2024-02-30", "Invalid date format"],
      ["calls=all", "Invalid parameter"],
    ]) {
      const { status, body } = await report(query);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ error: label, error_code: "INVALID_PARAMETER" });
    }
  });

  it("gives the same figures as CSV, one line per type and severity, per severity and overall", async () => {
    const { body } = await report(`${windowQuery}&calls=both&exercise_id=${EXERCISE}`);
    const response = await csvRoute(apiRequest(`http://localhost/api/reports/intervals.csv?${windowQuery}&calls=both&exercise_id=${EXERCISE}`), undefined);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "emergency_type,severity,calls,dispatched,p50_seconds,p90_seconds,max_seconds,within_60s,within_60s_share,located,location_p50_seconds,location_p90_seconds",
    );
    expect(lines).toHaveLength(1 + body.by_type_and_severity.length + body.by_severity.length + 1);
    const first = body.by_type_and_severity[0];
    expect(lines).toContain(
      [first.emergency_type, first.severity, first.calls, first.dispatched, first.p50_seconds, first.p90_seconds, first.max_seconds, first.within_60s, first.within_60s_share, 0, "", ""].join(","),
    );
    expect(lines.at(-1)).toBe(`,,${body.overall.calls},${body.overall.dispatched},${body.overall.p50_seconds},${body.overall.p90_seconds},${body.overall.max_seconds},${body.overall.within_60s},${body.overall.within_60s_share},0,,`);
  });

  it("gives \"location known\" from the call's start to its first live report with a location, beside the dispatch interval (a hand-made fixture)", async () => {
    // Five real calls on 2002-02-02: four reported live with a location 10, 20, 30 and 45 s in, one never;
    // the first three dispatched 40, 50 and 90 s in.
    const db = await getDb();
    const start = new Date("2002-02-02T10:00:00.000Z");
    const fixture: [located: number | null, dispatched: number | null][] = [[10, 40], [20, 50], [30, 90], [45, null], [null, 70]];
    for (const [index, [located, dispatched]] of fixture.entries()) {
      const id = `${run}_located_${index}`;
      const at = new Date(start.getTime() + index * 60_000);
      const after = (seconds: number | null) => (seconds === null ? null : new Date(at.getTime() + seconds * 1000));
      await db.$executeRaw`
        INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
          emergency_type, location, severity, status, simulation, table_name, live_at, live_located_at, post_call_at)
        VALUES (${id}, ${id}, ${at}, 'agent_live', 'Location known fixture', true, 120, 0, 'fire', 'somewhere', 'critical',
          'active', false, 'calls', ${at}, ${after(located)}, ${after(120)})`;
      await db.$executeRaw`INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
        VALUES (${id}, NULL, 'active', ${at}, 'fixture')`;
      if (dispatched !== null) {
        await db.$executeRaw`INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
          VALUES (${id}, 'active', 'dispatched', ${after(dispatched)}, 'fixture')`;
      }
    }
    const { status, body } = await report("from=2002-02-02T00:00:00Z&to=2002-02-02T23:59:59Z");
    expect(status).toBe(200);
    // percentile_cont over 10, 20, 30, 45: p50 = 25, p90 = 30 + 0.7 x 15 = 40.5; dispatch over 40, 50, 70, 90: p50 60, p90 84.
    expect(body.overall).toMatchObject({
      calls: 5, dispatched: 4, p50_seconds: 60, p90_seconds: 84, max_seconds: 90, within_60s: 2,
      located: 4, location_p50_seconds: 25, location_p90_seconds: 40.5,
    });
    expect(body.by_severity).toMatchObject([{ severity: "critical", located: 4, location_p50_seconds: 25 }]);
  });
});

describe("the exercise debrief", () => {
  it("shows the report's figures for the exercise's window", async () => {
    const clock = manualClock();
    const exercise = await createExercise(
      parseCreateExercise({ num_calls: 120, duration_minutes: 10, speed: 20, abandoned_share: 0.2, seed: 5, start: true }),
      testAdmin,
      clock,
    );
    await runFor(clock, 10 * 60_000, { speed: 20, stepMs: 15_000 });
    const ended = await getExercise(exercise.id, clock);
    expect(ended.state).toBe("completed");
    const db = await getDb();
    await db.$executeRaw`
      WITH answered AS (
        SELECT c.id, c.created_at, row_number() OVER (ORDER BY c.created_at, c.id) AS n
        FROM calls c WHERE c.exercise_id = ${exercise.id}
          -- answered: still open when the exercise ended, which closed them (docs/exercises.md)
          AND EXISTS (SELECT 1 FROM call_status_changes h WHERE h.call_id = c.id AND h.changed_by = ${EXERCISE_END} AND h.from_status = 'active')
      )
      INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
      SELECT id, 'active', CASE WHEN n % 3 = 0 THEN 'enroute' WHEN n % 7 = 0 THEN 'failed' ELSE 'dispatched' END,
        created_at + ((n * 13) % 150) * interval '1 second' + (n % 1000) * interval '1 millisecond', 'api'
      FROM answered WHERE n % 5 <> 0`;

    const debrief = await computeDebrief(exercise.id, clock);
    // A call that reached the centre by its post-call event began its duration (at most 600 exercise
    // seconds) before: the window holding the exercise's calls opens that long before its start.
    const [window] = await db.$queryRaw<{ from: Date }[]>`
      SELECT started_at - 600 / speed * interval '1 second' AS from FROM exercises WHERE id = ${exercise.id}`;
    const { status, body } = await report(
      `from=${window.from.toISOString()}&to=${debrief.as_of}&calls=exercise&exercise_id=${exercise.id}`,
    );
    expect(status).toBe(200);
    expect(body.overall.calls).toBe(debrief.released - debrief.abandoned);
    expect(body.overall.dispatched).toBeGreaterThan(0);
    expect(debrief.dispatch_times.map((times) => times.severity)).toEqual(["critical", "high", "moderate"]);
    expect(debrief.dispatch_times.reduce((sum, times) => sum + times.dispatched, 0)).toBe(body.overall.dispatched);
    expect(debrief.dispatch_times).toEqual(
      body.by_severity.map(({ severity, dispatched, p50_seconds, p90_seconds, max_seconds, located, location_p50_seconds, location_p90_seconds }) => ({
        severity, dispatched, p50_seconds, p90_seconds, max_seconds, located, location_p50_seconds, location_p90_seconds,
      })),
    );
  });
});
