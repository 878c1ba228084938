/**
 * Live calls against post-call events, dispatched by a scripted dispatcher (issue 38, acceptance
 * 4): one production instance over a scratch database runs the same exercise twice (same seed,
 * scenario, shape, duration, calls, speed), once with every answered call live (`live_share` 1)
 * and once with post-call events only (`live_share` 0):
 *
 *   npm run build && BENCH_PORT=3108 npx tsx bench/live-dispatch.ts
 *
 * The scripted dispatcher follows the board through the server's change stream (bench/change-stream.ts,
 * the bench's administrator key) and dispatches each of the exercise's incidents
 * BENCH_DISPATCH_AFTER_SECONDS (default 10) exercise seconds after the first of its open calls
 * showed up in it, as a dispatcher does (`PATCH /api/incidents/{id}` `{"status": "dispatched"}`:
 * its open calls with it). A call that joins an incident already dispatched (the grouper's move,
 * or a live call placed once located) is left undispatched by that move, so it is dispatched on its
 * own (`PATCH /api/calls/{id}`) the same time after it first showed up on the board (at once when
 * that has passed), unless the stream shows it dispatched by then. An incident gone by its time (its only call moved into another
 * by the grouper) answers 404 or 409 and is counted apart.
 *
 * Exercise time, not wall time: the scheduler writes every call and live step at its own clock,
 * so the calls' times in the store (arrival `occurred_at`, `live_located_at`, the status changes)
 * are wall times, and the exercise runs `speed` exercise seconds per wall second; the calls'
 * durations (`duration_secs`, 45-600 s) and the live script's steps (location 15-60 s in) are
 * exercise seconds (docs/exercises.md, "Live calls"). So the dispatcher's 10 s are exercise
 * seconds (10 / speed wall seconds), and the report's seconds (GET /api/reports/intervals
 * `calls=exercise&exercise_id=`, docs/reports.md: wall seconds from the call's arrival to its
 * first dispatch) are shown both as they come and times the speed, in exercise seconds, beside
 * the calls' median duration (the plan's `duration_secs` of the released answered calls, the
 * same in both runs, exercise seconds). The comparison holds either way (both sides scaled by
 * the same speed). The scheduler ticks every second, so steps come in whole ticks (`speed`
 * exercise seconds); the stream's and requests' latency count at the speed too.
 *
 * The post-call run's calls reach the centre as post-call events do, at their end: the scheduler
 * writes each whole at its due time with its start (`occurred_at`) its duration earlier in
 * exercise time (lib/exercises/scheduler.ts), so the report counts from the caller's first word
 * in both runs; the report's window opens the longest call (600 exercise seconds) before the start.
 *
 * Per run: calls (the report's: answered), dispatched, the report's p50 and p90, the calls' median
 * duration, located live and the "location known" p50, whether p50 dispatch < median duration,
 * the debrief's dispatched total (equal to the report's), never dispatched, and what the
 * dispatcher did. BENCH_SPEED (10), BENCH_DURATION_MINUTES (30, exercise minutes), BENCH_CALLS
 * (150), BENCH_SEED (38) and BENCH_SCENARIO (the default) set the plan; BENCH_DATABASE_URL names
 * the server the scratch database is made on. A JSON summary goes to stdout; nothing is written.
 */
import type pg from "pg";
import { openChangeStream } from "./change-stream";
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { loadAverage, percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
/** A numeric setting from the environment, else its default. */
const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const port = setting("BENCH_PORT", 3108);
/** The exercise's plan, the same in both runs but for `live_share`. */
const PLAN = {
  ...(process.env.BENCH_SCENARIO ? { scenario: process.env.BENCH_SCENARIO } : {}),
  duration_minutes: setting("BENCH_DURATION_MINUTES", 30),
  num_calls: setting("BENCH_CALLS", 150),
  speed: setting("BENCH_SPEED", 10),
  seed: setting("BENCH_SEED", 38),
};
const SPEED = PLAN.speed;
const DISPATCH_AFTER_SECONDS = setting("BENCH_DISPATCH_AFTER_SECONDS", 10);
/** Wall milliseconds the dispatcher waits: exercise seconds at the exercise's speed. */
const DISPATCH_AFTER_MS = (DISPATCH_AFTER_SECONDS * 1000) / SPEED;

interface StreamCall {
  conversation_id: string;
  status: string;
  exercise_id: string | null;
  incident_id: string | null;
}

interface IntervalFigures {
  calls: number;
  dispatched: number;
  p50_seconds: number | null;
  p90_seconds: number | null;
  located: number;
  location_p50_seconds: number | null;
}

const json = { ...benchAuth, "content-type": "application/json" };
const round = (value: number | null, digits = 1) => (value === null ? null : Number(value.toFixed(digits)));
const exerciseSeconds = (wallSeconds: number | null) => (wallSeconds === null ? null : wallSeconds * SPEED);

async function request(base: string, path: string, method = "GET", body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`, { method, headers: json, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : text };
}

async function expectOk<T>(base: string, path: string, method = "GET", body?: unknown): Promise<T> {
  const answer = await request(base, path, method, body);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

/**
 * The scripted dispatcher for one exercise: each incident dispatched DISPATCH_AFTER_MS after its
 * first open call showed up in it on the stream; a call showing up in an incident this dispatcher
 * had already moved, dispatched on its own the same time later unless the stream says it no longer waits.
 */
function scriptedDispatcher(base: string, exerciseId: string) {
  /** Per incident: when its dispatch was sent (null until then). */
  const incidents = new Map<string, { sentAt: number | null }>();
  /** Each call's latest state on the stream, and when it first showed up open in an incident. */
  const latest = new Map<string, StreamCall>();
  const firstSeen = new Map<string, number>();
  /** Call and incident pairs already scheduled. */
  const scheduled = new Set<string>();
  const pending = new Set<Promise<void>>();
  const answers = { incident: new Map<number, number>(), call: new Map<number, number>() };
  const lateMs: number[] = [];
  const count = (tally: Map<number, number>, status: number) => tally.set(status, (tally.get(status) ?? 0) + 1);

  const at = (due: number, work: () => Promise<void>) => {
    const target = Math.max(due, Date.now());
    const done = new Promise<void>((resolve) => {
      setTimeout(() => {
        lateMs.push(Date.now() - target);
        work().catch((error: unknown) => console.error(`dispatcher: ${String(error)}`)).finally(resolve);
      }, target - Date.now());
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  const dispatchIncident = async (incident: string) => {
    incidents.get(incident)!.sentAt = Date.now();
    count(answers.incident, (await request(base, `/api/incidents/${incident}`, "PATCH", { status: "dispatched", dispatch_reason: "Bench: the platform keeps no units here" })).status);
  };
  const dispatchCall = async (call: string, incident: string) => {
    const now = latest.get(call);
    if (now?.status !== "active" || now.incident_id !== incident) return;
    count(answers.call, (await request(base, `/api/calls/${encodeURIComponent(call)}`, "PATCH", { status: "dispatched" })).status);
  };

  const stream = openChangeStream(base, (data, seenAt) => {
    const { call } = JSON.parse(data) as { call?: StreamCall };
    if (!call || call.exercise_id !== exerciseId) return;
    latest.set(call.conversation_id, call);
    const incident = call.incident_id;
    if (call.status !== "active" || !incident) return;
    if (!firstSeen.has(call.conversation_id)) firstSeen.set(call.conversation_id, seenAt);
    const known = incidents.get(incident);
    if (!known) {
      incidents.set(incident, { sentAt: null });
      at(seenAt + DISPATCH_AFTER_MS, () => dispatchIncident(incident));
      return;
    }
    // Seen before the incident's dispatch was sent: that move carries it.
    const key = `${call.conversation_id} ${incident}`;
    if (known.sentAt === null || seenAt < known.sentAt || scheduled.has(key)) return;
    scheduled.add(key);
    at(firstSeen.get(call.conversation_id)! + DISPATCH_AFTER_MS, () => dispatchCall(call.conversation_id, incident));
  });

  return {
    connected: stream.connected,
    /** Waits for the dispatches in flight, closes the stream, answers what was done. */
    async finish() {
      while (pending.size > 0) await Promise.all([...pending]);
      stream.close();
      lateMs.sort((a, b) => a - b);
      return {
        incidents_seen: incidents.size,
        incident_dispatches: Object.fromEntries(answers.incident),
        call_dispatches: Object.fromEntries(answers.call),
        timer_late_ms: { p50: lateMs.length ? percentile(lateMs, 0.5) : null, max: lateMs.at(-1) ?? null },
      };
    },
  };
}

interface ExerciseAnswer {
  id: string;
  state: string;
  started_at: string | null;
}

async function runExercise(base: string, client: pg.Client, liveShare: number) {
  const planned = await expectOk<ExerciseAnswer>(base, "/api/exercises", "POST", { ...PLAN, live_share: liveShare });
  const dispatcher = scriptedDispatcher(base, planned.id);
  await dispatcher.connected;
  const begun = Date.now();
  await expectOk(base, `/api/exercises/${planned.id}/start`, "POST");
  const deadline = begun + ((PLAN.duration_minutes * 60) / SPEED) * 1000 + 120_000;
  let exercise = planned;
  while (exercise.state !== "completed") {
    if (Date.now() > deadline) throw new Error(`exercise ${planned.id} still ${exercise.state} past its end`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    exercise = await expectOk<ExerciseAnswer>(base, `/api/exercises/${planned.id}`);
  }
  const wallSeconds = (Date.now() - begun) / 1000;
  const done = await dispatcher.finish();

  const window = `from=${encodeURIComponent(new Date(Date.parse(exercise.started_at!) - (600 / PLAN.speed) * 1000 - 60_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;
  const report = await expectOk<{ overall: IntervalFigures }>(base, `/api/reports/intervals?calls=exercise&exercise_id=${planned.id}&${window}`);
  const debrief = await expectOk<{ released: number; abandoned: number; never_dispatched: number; dispatch_times: { dispatched: number }[] }>(
    base,
    `/api/exercises/${planned.id}/debrief`,
  );
  // The calls' durations as planned (exercise seconds), the answered calls released: the report's calls.
  const { rows: [durations] } = await client.query<{ calls: number; median: number | null; live: number; post_call: number }>(
    `SELECT count(*)::int AS calls, percentile_cont(0.5) WITHIN GROUP (ORDER BY (p.record->>'duration_secs')::float8) AS median,
       count(*) FILTER (WHERE c.live_at IS NOT NULL)::int AS live, count(*) FILTER (WHERE c.post_call_at IS NOT NULL)::int AS post_call
     FROM exercise_calls p JOIN calls c ON c.id = p.call_id
     WHERE p.exercise_id = $1 AND NOT p.abandoned`,
    [planned.id],
  );

  // Answered calls never dispatched: how long before the exercise's end they arrived (exercise seconds) and how they ended.
  const { rows: undispatched } = await client.query<{ before_end_seconds: number; status: string; closed_by: string | null }>(
    `SELECT round((EXTRACT(EPOCH FROM e.ended_at - c.occurred_at) * e.speed)::numeric, 1)::float8 AS before_end_seconds, c.status,
       (SELECT h.changed_by FROM call_status_changes h WHERE h.call_id = c.id ORDER BY h.changed_at DESC LIMIT 1) AS closed_by
     FROM exercise_calls p JOIN calls c ON c.id = p.call_id JOIN exercises e ON e.id = p.exercise_id
     WHERE p.exercise_id = $1 AND NOT p.abandoned
       AND NOT EXISTS (SELECT 1 FROM call_status_changes h WHERE h.call_id = c.id AND h.status IN ('dispatched', 'enroute', 'resolved'))
     ORDER BY c.occurred_at`,
    [planned.id],
  );

  const { overall } = report;
  const p50 = exerciseSeconds(overall.p50_seconds);
  return {
    live_share: liveShare,
    exercise_id: planned.id,
    wall_seconds: round(wallSeconds),
    released: debrief.released,
    abandoned: debrief.abandoned,
    released_live: durations.live,
    completed_by_post_call_event: durations.post_call,
    calls: overall.calls,
    dispatched: overall.dispatched,
    never_dispatched: debrief.never_dispatched,
    debrief_dispatched: debrief.dispatch_times.reduce((sum, times) => sum + times.dispatched, 0),
    dispatch_p50_seconds: { wall: round(overall.p50_seconds, 2), exercise: round(p50) },
    dispatch_p90_seconds: { wall: round(overall.p90_seconds, 2), exercise: round(exerciseSeconds(overall.p90_seconds)) },
    median_duration_seconds: { wall: round(durations.median === null ? null : durations.median / SPEED, 2), exercise: round(durations.median) },
    located: overall.located,
    location_p50_seconds: { wall: round(overall.location_p50_seconds, 2), exercise: round(exerciseSeconds(overall.location_p50_seconds)) },
    dispatch_p50_below_median_duration: p50 !== null && durations.median !== null ? p50 < durations.median : null,
    never_dispatched_calls: undispatched,
    dispatcher: done,
  };
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  console.error(`load average before: ${loadBefore.join(" ")}`);
  const runs = await withScratchClient(server, async (client, url) => {
    const app = await startProductionServer(port, { DATABASE_URL: url, REDIS_URL: "" });
    try {
      const results = [];
      for (const liveShare of [1, 0]) {
        const run = await runExercise(app.base, client, liveShare);
        console.error(
          `live_share ${liveShare}: ${run.calls} calls, ${run.dispatched} dispatched, p50 ${run.dispatch_p50_seconds.exercise} s ` +
            `(median duration ${run.median_duration_seconds.exercise} s), located ${run.located} (p50 ${run.location_p50_seconds.exercise} s), ` +
            `p50 < median duration: ${run.dispatch_p50_below_median_duration}`,
        );
        results.push(run);
      }
      return results;
    } finally {
      app.stop();
    }
  });
  console.log(
    JSON.stringify(
      {
        settings: {
          scenario: "default",
          ...PLAN,
          dispatch_after_exercise_seconds: DISPATCH_AFTER_SECONDS,
          dispatch_after_wall_ms: DISPATCH_AFTER_MS,
        },
        runs,
        load_average_before: loadBefore,
        load_average_after: loadAverage(),
      },
      null,
      2,
    ),
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
