import { randomInt } from "node:crypto";
import { type LiveReport, NOTHING_REPORTED } from "../calls/write/live";
import type { ReceivedCall } from "../calls/write/received";
import { writeCalls } from "../calls/write/write-calls";
import type { Db } from "../db/client";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled, placementQuery } from "../incidents/grouping";
import { log } from "../log";
import type { CallPlacement } from "../geocoding/types";
import { formatCallId } from "../simulation/generate";
import { uuid7 } from "../db/uuid7";
import { reportCrewsDue, standDownExerciseUnits } from "../units/crews";
import { EXERCISE_TABLE_NAME, type Platform, type SimulatedCall } from "../vocabulary";
import { type Clock, elapsedMsAt, exerciseDb, nowOf } from "./exercise-rows";
import type { LiveScript, LiveStep } from "./live-script";

/**
 * The durable scheduler: releases running exercises' calls as they fall due, from PostgreSQL.
 *
 * One transaction claims due planned calls (`FOR UPDATE SKIP LOCKED`), inserts them as calls and
 * marks them released, so a crash at any point leaves each call either released (with its call)
 * or not (and claimable again), and instances running side by side never claim the same call: a
 * row one holds is skipped by the others, and once committed it no longer matches. PGlite runs the
 * same SQL on its single connection.
 *
 * Exercise time is wall time at the exercise's speed (pauses excepted): calls that fell due while
 * no scheduler ran are released at the next tick.
 *
 * A live call (docs/exercises.md, "Live calls") is released on the line through the live calls'
 * door and then unfolds one step at a time, each claimed the same way once due (`next_step_due_ms`,
 * exercise time after its release), so a step is done once, never before its time.
 */

/** Calls released per transaction; a tick repeats until fewer are due. */
const CLAIM_LIMIT = 500;

const randomCallNumber = () => randomInt(100_000_000_000, 1_000_000_000_000);

interface DueCall {
  exercise_id: string;
  seq: number;
  abandoned: boolean;
  record: SimulatedCall;
  precision: CallPlacement["precision"];
  source: CallPlacement["source"];
  uncertainty_m: number;
  elapsed_ms: number;
  speed: number;
  live_script: LiveScript | null;
}

interface Release {
  row: DueCall;
  id: string;
  /** When the conversation began: the release for a live or abandoned call, its duration earlier for another. */
  startedAt: string;
  call: SimulatedCall;
}

function groupByExercise(releases: readonly Release[]): Map<string, Release[]> {
  const groups = new Map<string, Release[]>();
  for (const release of releases) {
    const group = groups.get(release.row.exercise_id);
    if (group) group.push(release);
    else groups.set(release.row.exercise_id, [release]);
  }
  return groups;
}

/** Releases one batch of due calls at `now`: how many were claimed, and released. */
async function releaseBatch(db: Db, now: Date): Promise<{ claimed: number; released: number }> {
  return writeCalls(
    async (writes) => {
      const { tx, insertSimulatedRows, upsertLiveCall, closeExerciseCalls } = writes;
      const due = await tx.$queryRaw<DueCall[]>`
        SELECT c.exercise_id, c.seq, c.abandoned, c.record, c.location_precision AS precision, c.location_source AS source,
          c.location_uncertainty_m AS uncertainty_m, ${elapsedMsAt(now)}::float8 AS elapsed_ms, e.speed::float8 AS speed, c.live_script
        FROM exercise_calls c JOIN exercises e ON e.id = c.exercise_id
        WHERE e.state = 'running' AND c.released_at IS NULL AND c.due_offset_ms <= ${elapsedMsAt(now)}
        ORDER BY c.exercise_id, c.due_offset_ms, c.seq
        LIMIT ${CLAIM_LIMIT}
        FOR UPDATE OF c SKIP LOCKED`;
      // The call reaches the centre now (the content is the plan's). A live call starts now; any other
      // is its post-call event, which comes when the conversation ends, so it started its duration
      // ago in exercise time, as a real one would have: the report counts from there. A caller who hung
      // up before an answer (abandoned) never talked.
      const releases = due.map((row) => {
        const talked = row.live_script || row.abandoned ? 0 : (row.record.duration_secs * 1000) / row.speed;
        const startedAt = new Date(now.getTime() - talked);
        const timestamp = Math.floor(startedAt.getTime() / 1000);
        return {
          row,
          id: uuid7(),
          startedAt: startedAt.toISOString(),
          call: {
            ...row.record,
            timestamp,
            created_at: now.toISOString(),
            call_id: formatCallId(row.record.scenario, timestamp, randomCallNumber()),
          },
        };
      });
      // A live call's first step is its release; the next falls due after it, counted from the release.
      const nextDue = ({ row }: Release) => (row.live_script ? Math.floor(row.elapsed_ms) + row.live_script.steps[1].at_ms : null);
      await tx.$executeRaw`
        UPDATE exercise_calls c SET released_at = ${now}, released_offset_ms = floor(r.offset_ms), call_id = r.id,
          next_step = CASE WHEN r.next_due IS NULL THEN NULL ELSE 1 END, next_step_due_ms = r.next_due
        FROM unnest(${releases.map(({ row }) => row.exercise_id)}::text[], ${releases.map(({ row }) => row.seq)}::int[],
          ${releases.map(({ id }) => id)}::text[], ${releases.map(({ row }) => row.elapsed_ms)}::float8[],
          ${releases.map(nextDue)}::int[])
          AS r(exercise_id, seq, id, offset_ms, next_due)
        WHERE c.exercise_id = r.exercise_id AND c.seq = r.seq`;
      // The calls near the end: writing calls takes the change feed's lock until commit, which a real
      // call's insert waits for, so it is held for this statement and one short update only.
      let released = 0;
      const missed: DueCall[] = [];
      for (const release of releases.filter(({ row }) => row.live_script)) {
        const { row, call, id } = release;
        const written = await upsertLiveCall(liveReport(call.call_id, { exerciseId: row.exercise_id, call, id }, row, row.live_script!.steps[0], now), undefined);
        if (written?.inserted) released += 1;
        else missed.push(release.row);
      }
      for (const [exerciseId, group] of groupByExercise(releases.filter(({ row }) => !row.live_script))) {
        const inserted = await insertSimulatedRows(
          EXERCISE_TABLE_NAME,
          group.map(({ row, id, call, startedAt }) => ({
            id,
            call,
            startedAt,
            placement: { precision: row.precision, source: row.source, uncertaintyMeters: row.uncertainty_m },
            status: row.abandoned ? "failed" : "active",
          })),
          exerciseId,
          groupingEnabled(),
        );
        released += inserted.size;
        for (const release of group) if (!inserted.has(release.call.call_id)) missed.push(release.row);
      }
      // A call whose new id happened to be taken stays unreleased and gets another id next tick.
      if (missed.length > 0) {
        await tx.$executeRaw`
          UPDATE exercise_calls c SET released_at = NULL, released_offset_ms = NULL, call_id = NULL, next_step = NULL, next_step_due_ms = NULL
          FROM unnest(${missed.map((row) => row.exercise_id)}::text[], ${missed.map((row) => row.seq)}::int[]) AS r(exercise_id, seq)
          WHERE c.exercise_id = r.exercise_id AND c.seq = r.seq`;
      }
      // Running exercises past their end with every call out and every live step due by the end done
      // are complete; ended at their exact end. Live steps due later never are.
      const completed = await tx.$queryRaw<{ id: string }[]>`
        UPDATE exercises e SET state = 'completed', elapsed_ms = e.duration_minutes * 60000.0, running_since = NULL,
          ended_at = e.running_since + (e.duration_minutes * 60000.0 - e.elapsed_ms) / e.speed * interval '1 millisecond'
        WHERE e.state = 'running' AND ${elapsedMsAt(now)} >= e.duration_minutes * 60000.0
          AND NOT EXISTS (SELECT 1 FROM exercise_calls c WHERE c.exercise_id = e.id
            AND (c.released_at IS NULL OR c.next_step_due_ms <= e.duration_minutes * 60000))
        RETURNING e.id`;
      // Their calls leave the live picture with them (docs/exercises.md, "When an exercise ends").
      for (const { id } of completed) {
        await standDownExerciseUnits(writes, id);
        await closeExerciseCalls(id);
      }
      return { claimed: due.length, released };
    },
    { db, timeout: 30_000 },
  );
}

/** Exercise calls come from no platform: the column's default, as every simulated call's. */
const EXERCISE_PLATFORM: Platform = "elevenlabs";
const EXERCISE_AGENT = "simulator";

/** Where the generated call is, as the live door and the post-call door take it. */
function plannedPoint(call: SimulatedCall, placement: Placement) {
  return {
    latitude: Number(call.location.latitude),
    longitude: Number(call.location.longitude),
    precision: placement.precision,
    uncertaintyMeters: placement.uncertainty_m,
    source: placement.source,
    // The generator placed it: no GIS matched an address.
    matched: null,
    civic: null,
  };
}

type Placement = Pick<DueCall, "precision" | "source" | "uncertainty_m">;
type Training = NonNullable<LiveReport["training"]>;

/**
 * A live step as the agent's tools would say it (lib/on-the-line/report-emergency.ts): the conversation so
 * far and, at the step that reports, what the agent knows, the generated call's point included
 * (the plan placed it; no geocoder is asked).
 */
function liveReport(conversationId: string, training: Training, placement: Placement, step: LiveStep, now: Date): LiveReport {
  const { call } = training;
  const said = step.reports
    ? {
      emergencyType: call.emergency_type,
      severity: call.severity,
      location: call.location.address,
      details: call.description,
      point: plannedPoint(call, placement),
      geocoderFailed: false,
    }
    : NOTHING_REPORTED;
  return {
    conversationId,
    platform: EXERCISE_PLATFORM,
    agentId: EXERCISE_AGENT,
    ...said,
    callerPhone: call.caller_phone,
    transcript: { turns: step.turns, whole: true },
    at: now,
    training,
  };
}

/** The last step as the platform's post-call event would bring it: the analysis and the whole conversation. */
function postCallEvent(conversationId: string, occurredAt: Date, call: SimulatedCall, placement: Placement, step: LiveStep): ReceivedCall {
  const point = plannedPoint(call, placement);
  return {
    call: {
      conversationId,
      agentId: EXERCISE_AGENT,
      occurredAt,
      summary: call.summary,
      callSuccessful: true,
      durationSecs: call.duration_secs,
      transcriptLength: step.turns.length,
      emergencyType: call.emergency_type,
      severity: call.severity,
      location: call.location.address,
      reported: { latitude: point.latitude, longitude: point.longitude },
      status: "active",
      callerPhone: call.caller_phone,
      failureReason: null,
      platform: EXERCISE_PLATFORM,
      recordingUrl: null,
      recordingFallbackUrl: null,
      hasAnalysis: true,
      transcript: step.turns,
    },
    payloadKey: null,
    point,
    geocoderFailed: false,
    verified: true,
  };
}

interface DueStep extends Placement {
  exercise_id: string;
  seq: number;
  record: SimulatedCall;
  live_script: LiveScript;
  next_step: number;
  released_offset_ms: number;
  call_id: string;
  conversation_id: string;
  occurred_at: Date;
}

/** A live step of a running exercise is due at `now` (a read that locks nothing). */
async function stepDue(db: Db, now: Date): Promise<boolean> {
  const [row] = await db.$queryRaw<{ due: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM exercise_calls c JOIN exercises e ON e.id = c.exercise_id
      WHERE e.state = 'running' AND c.next_step_due_ms <= ${elapsedMsAt(now)}) AS due`;
  return row.due;
}

/** Does one batch of due live steps at `now`, each call's next one; answers how many. */
async function stepBatch(db: Db, now: Date): Promise<number> {
  return writeCalls(
    async ({ tx, lockChangeFeed, upsertLiveCall, upsertReceivedCalls }) => {
      // The feed's lock before the claim: stopping an exercise closes its calls under that lock
      // (closeExerciseCalls), so a step is written wholly before the closing or sees the exercise stopped.
      await lockChangeFeed();
      const due = await tx.$queryRaw<DueStep[]>`
        SELECT c.exercise_id, c.seq, c.call_id, c.record, c.live_script, c.next_step, c.released_offset_ms,
          c.location_precision AS precision, c.location_source AS source, c.location_uncertainty_m AS uncertainty_m,
          k.conversation_id, k.occurred_at
        FROM exercise_calls c JOIN exercises e ON e.id = c.exercise_id JOIN calls k ON k.id = c.call_id
        WHERE e.state = 'running' AND c.next_step_due_ms <= ${elapsedMsAt(now)}
        ORDER BY c.next_step_due_ms, c.exercise_id, c.seq
        LIMIT ${CLAIM_LIMIT}
        FOR UPDATE OF c SKIP LOCKED`;
      if (due.length === 0) return 0;
      const placement = groupingEnabled() ? placementQuery : undefined;
      const ended: ReceivedCall[] = [];
      for (const row of due) {
        const step = row.live_script.steps[row.next_step];
        if (step.ends) ended.push(postCallEvent(row.conversation_id, row.occurred_at, row.record, row, step));
        else {
          const training = { exerciseId: row.exercise_id, call: row.record, id: row.call_id };
          await upsertLiveCall(liveReport(row.conversation_id, training, row, step, now), placement);
        }
      }
      if (ended.length > 0) await upsertReceivedCalls(ended, placement);
      const following = due.map((row) => row.live_script.steps[row.next_step + 1]);
      await tx.$executeRaw`
        UPDATE exercise_calls c SET next_step = CASE WHEN r.next_due IS NULL THEN NULL ELSE c.next_step + 1 END,
          next_step_due_ms = r.next_due
        FROM unnest(${due.map((row) => row.exercise_id)}::text[], ${due.map((row) => row.seq)}::int[],
          ${due.map((row, i) => (following[i] ? row.released_offset_ms + following[i].at_ms : null))}::int[])
          AS r(exercise_id, seq, next_due)
        WHERE c.exercise_id = r.exercise_id AND c.seq = r.seq`;
      return due.length;
    },
    { db, timeout: 30_000 },
  );
}

export interface SchedulerDeps extends Clock {
  /** The database to release from: the process-wide client unless given (a second instance in tests). */
  db?: Db;
}

/** Releases every call due at the clock's now, and has the simulated units' crews report; answers how many calls. */
export async function releaseDueCalls(deps: SchedulerDeps = {}): Promise<number> {
  const db = deps.db ?? (await exerciseDb());
  const now = nowOf(deps);
  let total = 0;
  for (;;) {
    const { claimed, released } = await releaseBatch(db, now);
    total += released;
    if (claimed < CLAIM_LIMIT) break;
  }
  // Steps after releases: a call released late does the steps that fell due since at once, in order.
  let stepped = 0;
  while (await stepDue(db, now)) {
    const done = await stepBatch(db, now);
    // Another instance holds them.
    if (done === 0) break;
    stepped += done;
  }
  // The simulated units' crews report what fell due (lib/units/crews.ts).
  await reportCrewsDue({ now, db: deps.db });
  // A live call located after its release waits for the grouper, as a real one does (lib/on-the-line/report-emergency.ts).
  if (total > 0 || stepped > 0) groupSoon();
  return total;
}

export interface ExerciseScheduler {
  /** Stops ticking; resolves once a tick in progress has finished. */
  stop(): Promise<void>;
}

/** Ticks every `intervalMs` (1 s) until stopped; a tick never overlaps the previous one. */
export function startExerciseScheduler(options: SchedulerDeps & { intervalMs?: number } = {}): ExerciseScheduler {
  const intervalMs = options.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  // While the database is down every tick fails: logged when it starts failing and when it recovers.
  let failing = false;
  const tick = () => {
    current = releaseDueCalls(options)
      .then(() => {
        if (failing) log.info("exercise scheduler ticks again");
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) log.error({ err: error }, "exercise scheduler tick failed; retrying every tick");
        failing = true;
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
