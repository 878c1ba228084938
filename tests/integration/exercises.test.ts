import { apiRequest, testAdmin } from "@/tests/support/auth";
import { describe, expect, inject, it } from "vitest";
import { POST as create, GET as list } from "@/app/api/exercises/route";
import { GET as debriefCsvRoute } from "@/app/api/exercises/[id]/debrief.csv/route";
import { GET as debriefRoute } from "@/app/api/exercises/[id]/debrief/route";
import { POST as pauseRoute } from "@/app/api/exercises/[id]/pause/route";
import { GET as getRoute } from "@/app/api/exercises/[id]/route";
import { GET as boardRoute } from "@/app/api/live/board/route";
import { GET as hourlyRoute } from "@/app/api/live/hourly/route";
import { GET as mapRoute } from "@/app/api/live/map/route";
import { GET as queueRoute } from "@/app/api/live/queue/route";
import { POST as webhookRoute } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import { createExercise } from "@/lib/exercises/create";
import { computeDebrief } from "@/lib/exercises/debrief";
import { getExercise } from "@/lib/exercises/list";
import { pauseExercise } from "@/lib/exercises/pause";
import { resumeExercise } from "@/lib/exercises/resume";
import { type CreateExerciseRequest, debriefSchema, exerciseSchema, parseCreateExercise } from "@/lib/exercises/schema";
import { releaseDueCalls, startExerciseScheduler } from "@/lib/exercises/scheduler";
import { surgeCurve } from "@/lib/exercises/shapes";
import { stopExercise } from "@/lib/exercises/stop";
import { boardSchema, hourlySeriesSchema, mapViewSchema, queuePageSchema } from "@/lib/board/schema";
import type { SimulatedCall } from "@/lib/vocabulary";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { manualClock, runFor, secondInstance } from "../support/exercise-clock";
import { isTemplateSummary } from "../support/simulated-calls";
import { MANY_REQUESTS_TIMEOUT_MS } from "../support/timeouts";
import { webhookRequest } from "../support/webhook-request";

const MINUTE = 60_000;
const request = (fields: Partial<CreateExerciseRequest>) => parseCreateExercise(fields);
const context = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (body: unknown) =>
  create(apiRequest("http://localhost/api/exercises", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), undefined);

/** What the database holds for an exercise: calls written, planned rows released, duplicates. */
async function tally(exerciseId: string) {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ calls: number; planned: number; released: number; linked: number; orphans: number }[]>`
    SELECT (SELECT count(*)::int FROM calls WHERE exercise_id = ${exerciseId}) AS calls,
      (SELECT count(*)::int FROM exercise_calls WHERE exercise_id = ${exerciseId}) AS planned,
      (SELECT count(*)::int FROM exercise_calls WHERE exercise_id = ${exerciseId} AND released_at IS NOT NULL) AS released,
      (SELECT count(DISTINCT call_id)::int FROM exercise_calls WHERE exercise_id = ${exerciseId}) AS linked,
      (SELECT count(*)::int FROM calls c WHERE c.exercise_id = ${exerciseId}
        AND NOT EXISTS (SELECT 1 FROM exercise_calls p WHERE p.call_id = c.id)) AS orphans`;
  return row;
}

describe("exercise calls follow the surge curve", () => {
  it("releases 1,000 calls over 60 simulated minutes, every 5-minute bin within 10 % (or 5 calls) of the plan", async () => {
    const clock = manualClock();
    const exercise = await createExercise(
      request({ num_calls: 1000, duration_minutes: 60, shape: "ramp-peak-decay", speed: 60, seed: 7, start: true }),
      testAdmin,
      clock,
    );
    expect(exercise.state).toBe("running");
    // Ticks every 10 exercise seconds (1/6 s of wall time at 60x).
    await runFor(clock, 60 * MINUTE, { speed: 60, stepMs: 10_000 });

    const db = await getDb();
    const bins = await db.$queryRaw<{ bin: number; calls: number }[]>`
      SELECT LEAST(floor(EXTRACT(EPOCH FROM c.created_at - e.started_at) * e.speed / 300)::int, 11) AS bin,
        count(*)::int AS calls
      FROM calls c JOIN exercises e ON e.id = c.exercise_id WHERE e.id = ${exercise.id} GROUP BY 1 ORDER BY 1`;
    const curve = surgeCurve("ramp-peak-decay");
    // A call due at the very end falls on the boundary: it belongs to the last bin, counted in SQL.
    const actual = new Map(bins.map((row) => [row.bin, row.calls]));
    for (let bin = 0; bin < 12; bin++) {
      const planned = 1000 * (curve.cumulative((bin + 1) / 12) - curve.cumulative(bin / 12));
      expect(Math.abs((actual.get(bin) ?? 0) - planned), `bin ${bin}: ${actual.get(bin)} against ${planned.toFixed(1)}`).toBeLessThanOrEqual(
        Math.max(0.1 * planned, 5),
      );
    }
    expect(await getExercise(exercise.id, clock)).toMatchObject({ state: "completed", progress: { released: 1000, planned: 1000 } });
    expect(await tally(exercise.id)).toEqual({ calls: 1000, planned: 1000, released: 1000, linked: 1000, orphans: 0 });
    // Exercise calls are simulated calls and carry the exercise id.
    const [kinds] = await db.$queryRaw<{ simulated: number }[]>`
      SELECT count(*) FILTER (WHERE simulation)::int AS simulated FROM calls WHERE exercise_id = ${exercise.id}`;
    expect(kinds.simulated).toBe(1000);
    // Each reached the centre by its post-call event, at its end: it started its duration earlier in
    // exercise time (the report counts from there); a caller who hung up before an answer never talked.
    const [started] = await db.$queryRaw<{ calls: number; off: number; talked: number }[]>`
      SELECT count(*)::int AS calls,
        count(*) FILTER (WHERE abs(EXTRACT(EPOCH FROM c.created_at - c.occurred_at)
          - CASE WHEN p.abandoned THEN 0 ELSE c.duration_secs / e.speed END) >= 1)::int AS off,
        count(*) FILTER (WHERE c.occurred_at < c.created_at - interval '1 second')::int AS talked
      FROM calls c JOIN exercise_calls p ON p.call_id = c.id JOIN exercises e ON e.id = p.exercise_id WHERE e.id = ${exercise.id}`;
    expect(started.calls).toBe(1000);
    expect(started.off).toBe(0);
    expect(started.talked).toBeGreaterThan(500);
    // An exercise call's summary speaks as callers and agents do: none of /simulate's three shapes (docs/exercises.md).
    const summaries = await db.call.findMany({ where: { exerciseId: exercise.id }, select: { summary: true, simulatedRecord: true } });
    expect(summaries).toHaveLength(1000);
    for (const { summary, simulatedRecord } of summaries) {
      const record = simulatedRecord as unknown as SimulatedCall;
      expect(summary).toBe(record.summary);
      expect(summary).toContain(record.location.address);
      expect(isTemplateSummary(record), summary).toBe(false);
    }
  }, MANY_REQUESTS_TIMEOUT_MS);
});

// A second instance needs connections of its own: PostgreSQL only (PGlite is one in-process connection).
describe.skipIf(inject("testDatabase").kind !== "postgresql")("the scheduler is durable", () => {
  it("a scheduler killed mid-exercise, another started on the same database: exactly the planned calls, none twice", async () => {
    const clock = manualClock();
    const exercise = await createExercise(request({ num_calls: 600, duration_minutes: 30, speed: 30, seed: 11, start: true }), testAdmin, clock);
    const first = await secondInstance("exercise-scheduler-killed");
    const firstLoop = startExerciseScheduler({ db: first.db, now: clock.now, intervalMs: 5 });
    for (let step = 0; step < 40; step++) {
      clock.advance(10_000 / 30);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The kill: the first instance's connections die, in whatever transaction they are.
    clock.advance(5 * MINUTE / 30);
    const admin = await getDb();
    await admin.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'exercise-scheduler-killed'`;
    await firstLoop.stop();
    await first.close();
    const before = await tally(exercise.id);
    expect(before.released).toBeGreaterThan(0);
    expect(before.released).toBeLessThan(600);

    // A new instance on the same database (the process-wide client) takes over to the end.
    const second = startExerciseScheduler({ now: clock.now, intervalMs: 5 });
    clock.advance(31 * MINUTE / 30);
    for (let waited = 0; (await getExercise(exercise.id, clock)).state !== "completed" && waited < 20_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await second.stop();
    expect((await getExercise(exercise.id, clock)).state).toBe("completed");
    expect(await tally(exercise.id)).toEqual({ calls: 600, planned: 600, released: 600, linked: 600, orphans: 0 });
  });

  it("two instances releasing at the same instants release each planned call exactly once", async () => {
    const clock = manualClock();
    const exercise = await createExercise(request({ num_calls: 800, duration_minutes: 20, speed: 60, seed: 5, start: true }), testAdmin, clock);
    const other = await secondInstance("exercise-scheduler-other");
    let byOther = 0;
    let byThis = 0;
    try {
      for (let step = 0; step < 20; step++) {
        clock.advance(MINUTE / 60);
        const [a, b] = await Promise.all([releaseDueCalls({ db: other.db, now: clock.now }), releaseDueCalls({ now: clock.now })]);
        byOther += a;
        byThis += b;
      }
    } finally {
      await other.close();
    }
    expect(byOther + byThis).toBe(800);
    expect(await tally(exercise.id)).toEqual({ calls: 800, planned: 800, released: 800, linked: 800, orphans: 0 });
  });
});

describe("restart on any database (PGlite included)", () => {
  it("a scheduler loop stopped mid-exercise and a new one started: exactly the planned calls", async () => {
    const clock = manualClock();
    const exercise = await createExercise(request({ num_calls: 200, duration_minutes: 10, speed: 60, seed: 8, start: true }), testAdmin, clock);
    const first = startExerciseScheduler({ now: clock.now, intervalMs: 5 });
    clock.advance(4 * MINUTE / 60);
    await expect.poll(async () => (await tally(exercise.id)).released).toBeGreaterThan(0);
    await first.stop();
    const before = await tally(exercise.id);
    expect(before.released).toBeLessThan(200);

    const second = startExerciseScheduler({ now: clock.now, intervalMs: 5 });
    clock.advance(7 * MINUTE / 60);
    await expect.poll(async () => (await getExercise(exercise.id, clock)).state, { timeout: 20_000 }).toBe("completed");
    await second.stop();
    expect(await tally(exercise.id)).toEqual({ calls: 200, planned: 200, released: 200, linked: 200, orphans: 0 });
  });
});

describe("controls", () => {
  it("pause stops exercise time and arrivals; resume goes on where it paused; stop ends it", async () => {
    const clock = manualClock();
    const exercise = await createExercise(request({ num_calls: 300, duration_minutes: 30, shape: "steady", speed: 10, seed: 3, start: true }), testAdmin, clock);
    await runFor(clock, 10 * MINUTE, { speed: 10, stepMs: 30_000 });
    const paused = await pauseExercise(exercise.id, testAdmin, clock);
    expect(paused.state).toBe("paused");
    expect(paused.progress.elapsed_seconds).toBe(600);
    expect(paused.progress.released).toBeGreaterThanOrEqual(99);
    expect(paused.progress.released).toBeLessThanOrEqual(101);
    expect(paused.progress.remaining_seconds).toBe(1200);
    expect(paused.progress.remaining_wall_seconds).toBe(120);

    clock.advance(60 * MINUTE);
    expect(await releaseDueCalls({ now: clock.now })).toBe(0);
    expect((await getExercise(exercise.id, clock)).progress.elapsed_seconds).toBe(600);

    const resumed = await resumeExercise(exercise.id, testAdmin, clock);
    expect(resumed.state).toBe("running");
    await runFor(clock, 5 * MINUTE, { speed: 10, stepMs: 30_000 });
    const running = await getExercise(exercise.id, clock);
    expect(running.progress.elapsed_seconds).toBe(900);
    expect(running.progress.released).toBeGreaterThanOrEqual(149);
    expect(running.progress.released).toBeLessThanOrEqual(151);
    // Steady shape, 10 calls per exercise minute.
    expect(running.progress.calls_per_minute).toBeGreaterThanOrEqual(9);
    expect(running.progress.calls_per_minute).toBeLessThanOrEqual(11);

    const stopped = await stopExercise(exercise.id, testAdmin, clock);
    expect(stopped.state).toBe("stopped");
    clock.advance(60 * MINUTE);
    expect(await releaseDueCalls({ now: clock.now })).toBe(0);
    expect((await tally(exercise.id)).calls).toBe(running.progress.released);
    await expect(resumeExercise(exercise.id, testAdmin, clock)).rejects.toMatchObject({ code: "INVALID_TRANSITION" });
  });

  it("an ended exercise's open calls close by its end, stopped or completed: gone from the live picture and the default counts", async () => {
    const db = await getDb();
    const openOf = async (exerciseId: string) =>
      (await db.$queryRaw<{ calls: number; incidents: number }[]>`
        SELECT count(*)::int AS calls, count(DISTINCT incident_id)::int AS incidents FROM calls
        WHERE exercise_id = ${exerciseId} AND status IN ('active', 'dispatched', 'enroute')`)[0];
    const board = async () => boardSchema.parse(await (await boardRoute(apiRequest("http://localhost/api/live/board"))).json());

    const clock = manualClock();
    const stopped = await createExercise(request({ num_calls: 60, duration_minutes: 30, speed: 10, seed: 34, start: true }), testAdmin, clock);
    await runFor(clock, 10 * MINUTE, { speed: 10, stepMs: 30_000 });
    const before = await openOf(stopped.id);
    expect(before.calls).toBeGreaterThan(10);
    const boardBefore = await board();

    await stopExercise(stopped.id, testAdmin, clock);
    expect(await openOf(stopped.id)).toEqual({ calls: 0, incidents: 0 });
    const boardAfter = await board();
    expect(boardAfter.open.total).toBe(boardBefore.open.total - before.calls);
    expect(boardAfter.open_incidents).toBe(boardBefore.open_incidents - before.incidents);
    const closings = await db.$queryRaw<{ status: string; by: string; name: string; n: number }[]>`
      SELECT h.status, h.changed_by AS by, h.changed_by_name AS name, count(*)::int AS n FROM call_status_changes h
      JOIN calls c ON c.id = h.call_id WHERE c.exercise_id = ${stopped.id} AND h.changed_by = 'exercise:end' GROUP BY 1, 2, 3`;
    expect(closings).toEqual([{ status: "failed", by: "exercise:end", name: "Exercise ended", n: before.calls }]);
    // The end's closing is no dispatch in the debrief: every answered call stays never dispatched.
    const debrief = await computeDebrief(stopped.id);
    expect(debrief.dispatch_times.reduce((sum, row) => sum + row.dispatched, 0)).toBe(0);
    expect(debrief.never_dispatched).toBe(debrief.released - debrief.abandoned);

    const completed = await createExercise(request({ num_calls: 20, duration_minutes: 10, speed: 10, seed: 35, start: true }), testAdmin, clock);
    await runFor(clock, 11 * MINUTE, { speed: 10, stepMs: 30_000 });
    expect((await getExercise(completed.id, clock)).state).toBe("completed");
    expect(await openOf(completed.id)).toEqual({ calls: 0, incidents: 0 });
  });

  it("plans the same due times and content for the same seed", async () => {
    const db = await getDb();
    const plan = async (seed: number) => {
      const { id } = await createExercise(request({ num_calls: 50, duration_minutes: 30, shape: "double-wave", seed }), testAdmin);
      return db.$queryRaw<{ due: number; severity: string; address: string; abandoned: boolean }[]>`
        SELECT due_offset_ms AS due, record->>'severity' AS severity, record->'location'->>'address' AS address, abandoned
        FROM exercise_calls WHERE exercise_id = ${id} ORDER BY seq`;
    };
    const first = await plan(99);
    expect(await plan(99)).toEqual(first);
    expect(await plan(100)).not.toEqual(first);
  });
});

describe("HTTP", () => {
  it("creates (201), lists, answers progress, refuses a bad body without writing, and a wrong transition with 409", async () => {
    const db = await getDb();
    const [{ count: before }] = await db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM exercises`;
    for (const bad of [{ shape: "tsunami" }, { speed: 61 }, { num_calls: 0 }, { num_calls: 10, peak_calls_per_minute: 3 }, { abandoned_share: 1 }]) {
      const response = await post(bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(await response.json()).toMatchObject({ error: "Invalid exercise" });
    }
    const [{ count: after }] = await db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM exercises`;
    expect(after).toBe(before);

    const created = await post({ peak_calls_per_minute: 5, duration_minutes: 30, shape: "sudden-onset", seed: 1 });
    expect(created.status).toBe(201);
    const exercise = exerciseSchema.parse(await created.json());
    expect(exercise).toMatchObject({ state: "planned", shape: "sudden-onset", progress: { released: 0 } });
    expect(exercise.planned_calls).toBe(Math.round((5 * 30) / surgeCurve("sudden-onset").peakToMean));

    const listed = await (await list(apiRequest("http://localhost/api/exercises"), undefined)).json();
    expect(listed.exercises.map((entry: { id: string }) => entry.id)).toContain(exercise.id);
    const one = await getRoute(apiRequest(`http://localhost/api/exercises/${exercise.id}`), context(exercise.id));
    expect(exerciseSchema.parse(await one.json()).id).toBe(exercise.id);
    expect((await getRoute(apiRequest("http://localhost/api/exercises/nope"), context("nope"))).status).toBe(404);

    const pause = await pauseRoute(apiRequest(`http://localhost/api/exercises/${exercise.id}/pause`, { method: "POST" }), context(exercise.id));
    expect(pause.status).toBe(409);
    expect(await pause.json()).toMatchObject({ error: "Invalid transition" });
  });
});

describe("debrief", () => {
  it("equals the same figures computed directly in SQL from the status history", async () => {
    const clock = manualClock();
    const exercise = await createExercise(
      request({ num_calls: 240, duration_minutes: 20, speed: 20, abandoned_share: 0.2, seed: 21, start: true }),
      testAdmin,
      clock,
    );
    await runFor(clock, 20 * MINUTE, { speed: 20, stepMs: 15_000 });
    expect((await getExercise(exercise.id, clock)).state).toBe("completed");

    // Dispatchers at work: a deterministic mix of dispatched, skipped ahead, failed and untouched calls.
    const db = await getDb();
    await db.$executeRaw`
      WITH answered AS (
        SELECT c.id, c.created_at, row_number() OVER (ORDER BY c.created_at, c.id) AS n
        FROM calls c WHERE c.exercise_id = ${exercise.id} AND c.status = 'active'
      ), moves AS (
        SELECT id, 'active' AS from_status,
          CASE WHEN n % 5 = 0 THEN NULL WHEN n % 7 = 0 THEN 'failed' WHEN n % 3 = 0 THEN 'enroute' ELSE 'dispatched' END AS status,
          created_at + ((n * 37) % 900) * interval '1 second' AS at, n
        FROM answered
      ), first_moves AS (
        INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
        SELECT id, from_status, status, at, 'api' FROM moves WHERE status IS NOT NULL
      )
      INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
      SELECT id, status, 'resolved', at + interval '20 minutes', 'api' FROM moves WHERE status = 'dispatched' AND n % 2 = 0`;

    const response = await debriefRoute(apiRequest(`http://localhost/api/exercises/${exercise.id}/debrief`), context(exercise.id));
    expect(response.status).toBe(200);
    const debrief = debriefSchema.parse(await response.json());

    // The same figures, each computed on its own from the history.
    const [expected] = await db.$queryRaw<
      { released: number; abandoned: number; never_dispatched: number; longest_wait: number; longest_queue: number }[]
    >`
      WITH ex AS (SELECT ended_at FROM exercises WHERE id = ${exercise.id}),
      firsts AS (
        SELECT DISTINCT ON (h.call_id) h.call_id, h.changed_at
        FROM call_status_changes h WHERE h.status IN ('dispatched', 'enroute', 'resolved', 'failed')
          AND h.changed_by <> 'exercise:end'
        ORDER BY h.call_id, h.changed_at
      ),
      answered AS (
        SELECT c.id, c.occurred_at, c.created_at, f.changed_at AS left_at
        FROM calls c LEFT JOIN firsts f ON f.call_id = c.id
        WHERE c.exercise_id = ${exercise.id}
          AND NOT EXISTS (SELECT 1 FROM call_status_changes h WHERE h.call_id = c.id AND h.from_status IS NULL AND h.status = 'failed')
      )
      SELECT (SELECT count(*)::int FROM calls WHERE exercise_id = ${exercise.id}) AS released,
        (SELECT count(*)::int FROM calls WHERE exercise_id = ${exercise.id}) - (SELECT count(*)::int FROM answered) AS abandoned,
        (SELECT count(*)::int FROM answered a WHERE NOT EXISTS (
          SELECT 1 FROM call_status_changes h WHERE h.call_id = a.id AND h.status IN ('dispatched', 'enroute', 'resolved'))) AS never_dispatched,
        (SELECT max(EXTRACT(EPOCH FROM COALESCE(left_at, ex.ended_at) - occurred_at))::float8 FROM answered, ex) AS longest_wait,
        (SELECT max((SELECT count(*) FROM answered b WHERE b.created_at <= a.created_at AND (b.left_at IS NULL OR b.left_at > a.created_at)))::int
          FROM answered a) AS longest_queue`;
    expect(debrief).toMatchObject({
      released: expected.released,
      abandoned: expected.abandoned,
      never_dispatched: expected.never_dispatched,
      longest_queue: expected.longest_queue,
    });
    expect(debrief.longest_wait_seconds).toBeCloseTo(expected.longest_wait, 6);
    expect(expected.abandoned).toBeGreaterThan(20);
    expect(expected.longest_queue).toBeGreaterThan(1);

    const perSeverity = await db.$queryRaw<{ severity: string; dispatched: number; p50: number; p90: number; max: number }[]>`
      WITH dispatched AS (
        SELECT DISTINCT ON (h.call_id) h.call_id, h.changed_at
        FROM call_status_changes h WHERE h.status IN ('dispatched', 'enroute', 'resolved')
        ORDER BY h.call_id, h.changed_at
      )
      SELECT c.severity, count(*)::int AS dispatched,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM d.changed_at - c.occurred_at)) AS p50,
        percentile_cont(0.9) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM d.changed_at - c.occurred_at)) AS p90,
        max(EXTRACT(EPOCH FROM d.changed_at - c.occurred_at))::float8 AS max
      FROM calls c JOIN dispatched d ON d.call_id = c.id WHERE c.exercise_id = ${exercise.id} GROUP BY c.severity ORDER BY c.severity`;
    expect(debrief.dispatch_times.filter((entry) => entry.dispatched > 0)).toEqual(
      perSeverity.map((row) => ({
        severity: row.severity, dispatched: row.dispatched, p50_seconds: row.p50, p90_seconds: row.p90, max_seconds: row.max,
        // The exercise's calls are not live calls: no location known before the call is stored.
        located: 0, location_p50_seconds: null, location_p90_seconds: null,
      })),
    );

    const perMinute = await db.$queryRaw<{ minute: number; calls: number }[]>`
      SELECT floor(EXTRACT(EPOCH FROM c.created_at - e.started_at) * e.speed / 60)::int AS minute, count(*)::int AS calls
      FROM calls c JOIN exercises e ON e.id = c.exercise_id WHERE e.id = ${exercise.id} GROUP BY 1`;
    const actualByMinute = new Map(perMinute.map((row) => [Math.min(row.minute, 19), 0]));
    for (const row of perMinute) actualByMinute.set(Math.min(row.minute, 19), (actualByMinute.get(Math.min(row.minute, 19)) ?? 0) + row.calls);
    expect(debrief.calls_per_minute).toHaveLength(20);
    for (const { minute, actual } of debrief.calls_per_minute) expect(actual, `minute ${minute}`).toBe(actualByMinute.get(minute) ?? 0);
    expect(debrief.calls_per_minute.reduce((sum, entry) => sum + entry.planned, 0)).toBe(240);

    const csv = await debriefCsvRoute(apiRequest(`http://localhost/api/exercises/${exercise.id}/debrief.csv`), context(exercise.id));
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("metric,severity,minute,value");
    expect(lines).toContain(`longest_queue,,,${expected.longest_queue}`);
    expect(lines).toContain(`never_dispatched,,,${expected.never_dispatched}`);
    expect(await computeDebrief(exercise.id, clock)).toEqual(debrief);
  });
});

describe("a dispatcher hides exercise calls (exercises=hide on the live endpoints)", () => {
  const read = async (handler: (request: Request) => Promise<Response>, url: string) => {
    const response = await handler(apiRequest(`http://localhost${url}`));
    expect(response.status, url).toBe(200);
    return (await response.json()) as unknown;
  };

  /** The same figures counted from calls themselves, with or without exercise calls. */
  async function countedInSql(hide: boolean) {
    const db = await getDb();
    const [row] = await db.$queryRaw<{ open: number; critical: number; active: number; total: number; located: number }[]>`
      SELECT count(*) FILTER (WHERE status IN ('active', 'dispatched', 'enroute'))::int AS open,
        count(*) FILTER (WHERE status IN ('active', 'dispatched', 'enroute') AND severity = 'critical')::int AS critical,
        count(*) FILTER (WHERE status = 'active')::int AS active,
        count(*)::int AS total,
        count(*) FILTER (WHERE status IN ('active', 'dispatched', 'enroute') AND latitude IS NOT NULL AND longitude IS NOT NULL)::int AS located
      FROM calls WHERE NOT ${hide} OR exercise_id IS NULL`;
    return row;
  }

  it("the hidden board, queue, map and chart equal SQL over non-exercise calls; shown, they include both; a webhook call stays", async () => {
    const clock = manualClock();
    const exercise = await createExercise(request({ num_calls: 40, duration_minutes: 30, speed: 60, seed: 23, start: true }), testAdmin, clock);
    // Still running: its calls stay open (an ended exercise's are closed, docs/exercises.md).
    await runFor(clock, 20 * MINUTE, { speed: 60, stepMs: 60_000 });
    expect((await tally(exercise.id)).calls).toBeGreaterThan(20);
    const realIds = ["conv_hide_real_1", "conv_hide_real_2", "conv_hide_real_3"];
    for (const id of realIds) {
      const response = await webhookRoute(webhookRequest(specCallEvent(id, { location: "Mission District, San Francisco" })), undefined);
      expect(response.status).toBe(200);
    }

    for (const hide of [true, false]) {
      const suffix = hide ? "exercises=hide" : "exercises=show";
      const sql = await countedInSql(hide);
      const board = boardSchema.parse(await read(boardRoute, `/api/live/board?${suffix}`));
      expect(board.open.total).toBe(sql.open);
      expect(board.open.by_severity.critical).toBe(sql.critical);
      expect(board.open.by_status.active).toBe(sql.active);
      expect(board.total_calls).toBe(sql.total);
      expect(board.by_type.reduce((sum, type) => sum + type.total, 0)).toBe(sql.total);

      // Every page of the queue, by its keyset cursor: the hidden one holds no exercise call at all.
      const queued: { conversation_id: string; exercise_id?: string | null }[] = [];
      for (let after: string | null = ""; after !== null; ) {
        const cursor: string = after ? `&after=${encodeURIComponent(after)}` : "";
        const page = queuePageSchema.parse(await read(queueRoute, `/api/live/queue?limit=500&${suffix}${cursor}`));
        queued.push(...page.calls);
        after = page.next;
      }
      expect(queued.length).toBe(sql.open);
      expect(queued.some((call) => call.exercise_id === exercise.id)).toBe(!hide);
      if (hide) expect(queued.filter((call) => call.exercise_id)).toEqual([]);
      for (const id of realIds) expect(queued.map((call) => call.conversation_id)).toContain(id);

      const map = mapViewSchema.parse(await read(mapRoute, `/api/live/map?west=-180&south=-85&east=180&north=85&zoom=2&closed_hours=0&${suffix}`));
      expect(map.shown).toBe(sql.located);

      const hourly = hourlySeriesSchema.parse(await read(hourlyRoute, `/api/live/hourly?${suffix}`));
      const db = await getDb();
      const [window] = await db.$queryRaw<{ total: number }[]>`
        WITH shown AS (SELECT occurred_at FROM calls WHERE NOT ${hide} OR exercise_id IS NULL)
        SELECT count(*)::int AS total FROM shown
        WHERE occurred_at >= date_trunc('hour', (SELECT max(occurred_at) FROM shown), 'UTC') - interval '71 hours'`;
      expect(hourly.total).toBe(window.total);
    }
    // Both picture differ by exactly the exercise calls this file released.
    const shown = boardSchema.parse(await read(boardRoute, "/api/live/board"));
    const hidden = boardSchema.parse(await read(boardRoute, "/api/live/board?exercises=hide"));
    const db = await getDb();
    const [exerciseCalls] = await db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM calls WHERE exercise_id IS NOT NULL`;
    expect(shown.total_calls - hidden.total_calls).toBe(exerciseCalls.total);
    expect(exerciseCalls.total).toBeGreaterThanOrEqual(40);
  });

  it("refuses any other value in the documented format", async () => {
    const response = await boardRoute(apiRequest("http://localhost/api/live/board?exercises=maybe"));
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("exercises must be show or hide");
  });
});
