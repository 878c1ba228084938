import { apiRequest, testAdmin } from "@/tests/support/auth";
import { describe, expect, inject, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/client";
import { createExercise } from "@/lib/exercises/create";
import { computeDebrief } from "@/lib/exercises/debrief";
import { getExercise } from "@/lib/exercises/list";
import { type CreateExerciseRequest, parseCreateExercise } from "@/lib/exercises/schema";
import { releaseDueCalls } from "@/lib/exercises/scheduler";
import { stopExercise } from "@/lib/exercises/stop";
import { type ManualClock, manualClock, secondInstance } from "../support/exercise-clock";
import { MANY_REQUESTS_TIMEOUT_MS } from "../support/timeouts";

/** Exercise minutes per wall minute, and one tick per exercise second (100 ms of wall time: whole milliseconds). */
const SPEED = 10;
const TICK_MS = 1000;
const request = (fields: Partial<CreateExerciseRequest>) =>
  parseCreateExercise({ shape: "sudden-onset", speed: SPEED, live_share: 1, abandoned_share: 0, start: true, ...fields });

interface Seen {
  id: string;
  on_line: boolean;
  located: boolean;
  finished: boolean;
}

/** What each of the exercise's calls looks like now. */
async function look(exerciseId: string): Promise<Seen[]> {
  const db = await getDb();
  return db.$queryRaw<Seen[]>`
    SELECT id, on_line, live_located_at IS NOT NULL AS located, post_call_at IS NOT NULL AS finished
    FROM calls WHERE exercise_id = ${exerciseId}`;
}

const START = Date.UTC(2026, 10, 23, 9, 0, 0);

/**
 * Ticks every exercise second for `seconds`, on `dbs` at the same instants (one instance each),
 * and keeps, per call, the exercise time at which it was first seen unlocated on the line, and finished.
 */
async function tickFor(exerciseId: string, clock: ManualClock, seconds: number, dbs: (Db | undefined)[] = [undefined]) {
  const unlocatedOnLine = new Set<string>();
  const finishedAt = new Map<string, number>();
  for (let second = 0; second < seconds; second++) {
    clock.advance(TICK_MS / SPEED);
    await Promise.all(dbs.map((db) => releaseDueCalls({ now: clock.now, db })));
    // Exercise time now (the exercise started at START, never paused).
    const elapsedMs = (clock.ms - START) * SPEED;
    for (const call of await look(exerciseId)) {
      if (call.on_line && !call.located) unlocatedOnLine.add(call.id);
      if (call.finished && !finishedAt.has(call.id)) finishedAt.set(call.id, elapsedMs);
    }
  }
  return { unlocatedOnLine, finishedAt };
}

interface Unfolded {
  id: string;
  released_offset_ms: number;
  duration_secs: number;
  planned_duration_secs: number;
  planned_summary: string;
  planned_located_ms: number;
  summary: string;
  on_line: boolean;
  status: string;
  simulation: boolean;
  table_name: string;
  located_exercise_secs: number | null;
  finished: boolean;
  turns: number;
  creations: number;
  incident_exists: boolean;
}

/** Every released call of the exercise with what its plan said. */
async function unfolded(exerciseId: string): Promise<Unfolded[]> {
  const db = await getDb();
  return db.$queryRaw<Unfolded[]>`
    SELECT c.id, p.released_offset_ms, c.duration_secs, (p.record->>'duration_secs')::int AS planned_duration_secs,
      p.record->>'summary' AS planned_summary, (p.live_script->'steps'->1->>'at_ms')::int AS planned_located_ms, c.summary, c.on_line, c.status, c.simulation, c.table_name,
      EXTRACT(EPOCH FROM c.live_located_at - c.occurred_at)::float8 * e.speed AS located_exercise_secs,
      c.post_call_at IS NOT NULL AS finished,
      COALESCE((SELECT jsonb_array_length(t.turns) FROM call_transcripts t WHERE t.call_id = c.id), 0)::int AS turns,
      (SELECT count(*)::int FROM call_status_changes h WHERE h.call_id = c.id AND h.from_status IS NULL) AS creations,
      EXISTS (SELECT 1 FROM incidents i WHERE i.id = c.incident_id) AS incident_exists
    FROM exercise_calls p JOIN calls c ON c.id = p.call_id JOIN exercises e ON e.id = p.exercise_id
    WHERE p.exercise_id = ${exerciseId} ORDER BY p.seq`;
}

async function counts(exerciseId: string) {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ calls: number; planned: number; on_line: number; incidents: number }[]>`
    SELECT (SELECT count(*)::int FROM calls WHERE exercise_id = ${exerciseId}) AS calls,
      (SELECT count(*)::int FROM exercise_calls WHERE exercise_id = ${exerciseId}) AS planned,
      (SELECT count(*)::int FROM calls WHERE exercise_id = ${exerciseId} AND on_line) AS on_line,
      (SELECT count(DISTINCT incident_id)::int FROM calls WHERE exercise_id = ${exerciseId}) AS incidents`;
  return row;
}

/**
 * Located 15-60 exercise seconds into the call, exactly when its plan said (the ticks fall on whole
 * seconds), unless the exercise ended first: then never located.
 */
function expectLocatedAsPlanned(call: Unfolded, exerciseMs: number) {
  expect(call.planned_located_ms).toBeGreaterThanOrEqual(15_000);
  expect(call.planned_located_ms).toBeLessThanOrEqual(60_000);
  if (call.released_offset_ms + call.planned_located_ms > exerciseMs) expect(call.located_exercise_secs).toBeNull();
  else {
    expect(call.located_exercise_secs, `call ${call.id} not located`).not.toBeNull();
    expect(call.located_exercise_secs).toBeCloseTo(call.planned_located_ms / 1000, 6);
  }
}

/** A second instance needs PostgreSQL (PGlite is one process's). */
const onPostgres = inject("testDatabase").kind === "postgresql";

const incidentTotal = async () => (await getDb()).incident.count();

describe("an exercise with live calls", () => {
  it("each call is on the line unlocated, located 15-60 exercise seconds in, finished at its duration with the analysis; off the line after", async () => {
    const clock = manualClock(START);
    const incidentsBefore = await incidentTotal();
    const exercise = await createExercise(request({ num_calls: 12, duration_minutes: 8, seed: 38 }), testAdmin, clock);
    const { unlocatedOnLine, finishedAt } = await tickFor(exercise.id, clock, 8 * 60 + 1);
    expect(await getExercise(exercise.id, clock)).toMatchObject({ state: "completed", live_share: 1 });

    const calls = await unfolded(exercise.id);
    expect(calls).toHaveLength(12);
    const finished = calls.filter((call) => call.finished);
    const cut = calls.filter((call) => !call.finished);
    // The seed gives both: calls that ended on their own, and calls the exercise's end cut short.
    expect(finished.length).toBeGreaterThan(0);
    expect(cut.length).toBeGreaterThan(0);
    for (const call of calls) {
      // Training calls, never the real picture's; one record, one creation, in an incident that exists.
      expect(call).toMatchObject({ simulation: true, table_name: "exercise-calls", on_line: false, creations: 1, incident_exists: true });
      expect(unlocatedOnLine.has(call.id), `${call.id} was on the line before its location was known`).toBe(true);
      expectLocatedAsPlanned(call, 8 * 60_000);
    }
    const located = calls.filter((call) => call.located_exercise_secs !== null);
    expect(located.length).toBeGreaterThan(0);
    for (const call of finished) {
      // The post-call event came at the call's duration (exercise time), with the analysis and the whole conversation.
      expect(finishedAt.get(call.id)! - call.released_offset_ms).toBe(call.planned_duration_secs * 1000);
      expect(call).toMatchObject({ summary: call.planned_summary, duration_secs: call.planned_duration_secs, turns: 6, status: "failed" });
    }
    for (const call of cut) {
      // Still talking when the exercise ended: ended with it, off the line and closed, with no analysis.
      expect(call.released_offset_ms + call.planned_duration_secs * 1000).toBeGreaterThan(8 * 60_000);
      expect(call).toMatchObject({ duration_secs: 0, status: "failed" });
    }
    // One placement per call: every incident made is one of the exercise's calls'.
    const { incidents } = await counts(exercise.id);
    expect(await incidentTotal()).toBe(incidentsBefore + incidents);

    // The debrief's "location known" is the live location time of these calls.
    const debrief = await computeDebrief(exercise.id, clock);
    expect(debrief.dispatch_times.reduce((sum, row) => sum + row.located, 0)).toBe(located.length);
    const db = await getDb();
    for (const row of debrief.dispatch_times) {
      const [expected] = await db.$queryRaw<{ p50: number | null }[]>`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM live_located_at - occurred_at)) AS p50
        FROM calls WHERE exercise_id = ${exercise.id} AND severity = ${row.severity}`;
      if (expected.p50 === null) expect(row.location_p50_seconds).toBeNull();
      else expect(row.location_p50_seconds).toBeCloseTo(expected.p50, 3);
    }
  }, MANY_REQUESTS_TIMEOUT_MS);

  it("the same seed unfolds the same: location and duration times per call", async () => {
    const runs = [];
    for (let run = 0; run < 2; run++) {
      const clock = manualClock(START);
      const exercise = await createExercise(request({ num_calls: 4, duration_minutes: 2, seed: 3801 }), testAdmin, clock);
      await tickFor(exercise.id, clock, 2 * 60 + 1);
      runs.push((await unfolded(exercise.id)).map((call) => [call.released_offset_ms, call.located_exercise_secs, call.planned_duration_secs]));
    }
    expect(runs[1]).toEqual(runs[0]);
  }, MANY_REQUESTS_TIMEOUT_MS);

  it("stopping mid-way leaves no call on the line, and no step is done after", async () => {
    const clock = manualClock(START);
    const exercise = await createExercise(request({ num_calls: 10, duration_minutes: 6, seed: 3802 }), testAdmin, clock);
    await tickFor(exercise.id, clock, 90);
    expect((await counts(exercise.id)).on_line).toBeGreaterThan(0);
    // The API shows a call in progress as a real live one, marked as the exercise's.
    const [onLine] = await (await getDb()).$queryRaw<{ conversation_id: string }[]>`
      SELECT conversation_id FROM calls WHERE exercise_id = ${exercise.id} AND on_line LIMIT 1`;
    const shown = (await (await getCallRoute(apiRequest(`http://localhost/api/calls/${onLine.conversation_id}`), {
      params: Promise.resolve({ id: onLine.conversation_id }),
    })).json()) as { on_line: boolean; exercise_id: string; simulation: boolean; transcript: unknown[] };
    expect(shown).toMatchObject({ on_line: true, exercise_id: exercise.id, simulation: true });
    expect(shown.transcript.length).toBeGreaterThan(0);
    await stopExercise(exercise.id, testAdmin, clock);
    expect((await counts(exercise.id)).on_line).toBe(0);
    const before = await unfolded(exercise.id);
    await tickFor(exercise.id, clock, 120);
    expect(await unfolded(exercise.id)).toEqual(before);
    expect(before.every((call) => call.status === "failed" && !call.on_line)).toBe(true);
  }, MANY_REQUESTS_TIMEOUT_MS);

  it.skipIf(!onPostgres)("an instance gone mid-exercise, another goes on: each call unfolds as planned, once", async () => {
    const clock = manualClock(START);
    const exercise = await createExercise(request({ num_calls: 8, duration_minutes: 4, seed: 3804 }), testAdmin, clock);
    const first = await secondInstance("exercise-live-first");
    const before = await tickFor(exercise.id, clock, 100, [first.db]);
    await first.close();
    const after = await tickFor(exercise.id, clock, 4 * 60 + 1 - 100);
    expect(await getExercise(exercise.id, clock)).toMatchObject({ state: "completed" });
    const calls = await unfolded(exercise.id);
    expect(calls).toHaveLength(8);
    // Some calls were mid-way (released, not yet finished) when the first instance went.
    expect(calls.some((call) => before.unlocatedOnLine.has(call.id) && after.finishedAt.has(call.id))).toBe(true);
    for (const call of calls) {
      expect(call.creations).toBe(1);
      expectLocatedAsPlanned(call, 4 * 60_000);
      const ended = before.finishedAt.get(call.id) ?? after.finishedAt.get(call.id);
      if (ended !== undefined) expect(ended - call.released_offset_ms).toBe(call.planned_duration_secs * 1000);
    }
  }, MANY_REQUESTS_TIMEOUT_MS);

  it.skipIf(!onPostgres)("two instances releasing the same exercise at the same instants write each call and each step once", async () => {
    const clock = manualClock(START);
    const second = await secondInstance("exercise-live-b");
    try {
      const exercise = await createExercise(request({ num_calls: 10, duration_minutes: 5, seed: 3803 }), testAdmin, clock);
      const { unlocatedOnLine } = await tickFor(exercise.id, clock, 5 * 60 + 1, [undefined, second.db]);
      const { calls, planned, on_line } = await counts(exercise.id);
      expect({ calls, on_line }).toEqual({ calls: planned, on_line: 0 });
      for (const call of await unfolded(exercise.id)) {
        expect(call.creations).toBe(1);
        expect(unlocatedOnLine.has(call.id)).toBe(true);
        expectLocatedAsPlanned(call, 5 * 60_000);
        if (call.finished) expect(call.turns).toBe(6);
      }
    } finally {
      await second.close();
    }
  }, MANY_REQUESTS_TIMEOUT_MS);
});
