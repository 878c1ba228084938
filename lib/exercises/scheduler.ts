import { randomInt } from "node:crypto";
import { writeCalls } from "../calls/write/write-calls";
import type { Db } from "../db/client";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled } from "../incidents/grouping";
import { log } from "../log";
import type { CallPlacement } from "../geocoding/types";
import { formatCallId } from "../simulation/generate";
import { uuid7 } from "../db/uuid7";
import { EXERCISE_TABLE_NAME, type SimulatedCall } from "../vocabulary";
import { type Clock, elapsedMsAt, exerciseDb, nowOf } from "./exercise-rows";

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
}

interface Release {
  row: DueCall;
  id: string;
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
    async ({ tx, insertSimulatedRows, closeExerciseCalls }) => {
      const due = await tx.$queryRaw<DueCall[]>`
        SELECT c.exercise_id, c.seq, c.abandoned, c.record, c.location_precision AS precision, c.location_source AS source,
          c.location_uncertainty_m AS uncertainty_m, ${elapsedMsAt(now)}::float8 AS elapsed_ms
        FROM exercise_calls c JOIN exercises e ON e.id = c.exercise_id
        WHERE e.state = 'running' AND c.released_at IS NULL AND c.due_offset_ms <= ${elapsedMsAt(now)}
        ORDER BY c.exercise_id, c.due_offset_ms, c.seq
        LIMIT ${CLAIM_LIMIT}
        FOR UPDATE OF c SKIP LOCKED`;
      const timestamp = Math.floor(now.getTime() / 1000);
      // The call happens now: its times and id are the release's (the content is the plan's).
      const releases = due.map((row) => ({
        row,
        id: uuid7(),
        call: {
          ...row.record,
          timestamp,
          created_at: now.toISOString(),
          call_id: formatCallId(row.record.scenario, timestamp, randomCallNumber()),
        },
      }));
      await tx.$executeRaw`
        UPDATE exercise_calls c SET released_at = ${now}, released_offset_ms = floor(r.offset_ms), call_id = r.id
        FROM unnest(${releases.map(({ row }) => row.exercise_id)}::text[], ${releases.map(({ row }) => row.seq)}::int[],
          ${releases.map(({ id }) => id)}::text[], ${releases.map(({ row }) => row.elapsed_ms)}::float8[])
          AS r(exercise_id, seq, id, offset_ms)
        WHERE c.exercise_id = r.exercise_id AND c.seq = r.seq`;
      // The calls near the end: writing calls takes the change feed's lock until commit, which a real
      // call's insert waits for, so it is held for this statement and one short update only.
      let released = 0;
      const missed: DueCall[] = [];
      for (const [exerciseId, group] of groupByExercise(releases)) {
        const inserted = await insertSimulatedRows(
          EXERCISE_TABLE_NAME,
          group.map(({ row, id, call }) => ({
            id,
            call,
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
          UPDATE exercise_calls c SET released_at = NULL, released_offset_ms = NULL, call_id = NULL
          FROM unnest(${missed.map((row) => row.exercise_id)}::text[], ${missed.map((row) => row.seq)}::int[]) AS r(exercise_id, seq)
          WHERE c.exercise_id = r.exercise_id AND c.seq = r.seq`;
      }
      // Running exercises past their end with every call out are complete; ended at their exact end.
      const completed = await tx.$queryRaw<{ id: string }[]>`
        UPDATE exercises e SET state = 'completed', elapsed_ms = e.duration_minutes * 60000.0, running_since = NULL,
          ended_at = e.running_since + (e.duration_minutes * 60000.0 - e.elapsed_ms) / e.speed * interval '1 millisecond'
        WHERE e.state = 'running' AND ${elapsedMsAt(now)} >= e.duration_minutes * 60000.0
          AND NOT EXISTS (SELECT 1 FROM exercise_calls c WHERE c.exercise_id = e.id AND c.released_at IS NULL)
        RETURNING e.id`;
      // Their calls leave the live picture with them (docs/exercises.md, "When an exercise ends").
      for (const { id } of completed) await closeExerciseCalls(id);
      return { claimed: due.length, released };
    },
    { db, timeout: 30_000 },
  );
}

export interface SchedulerDeps extends Clock {
  /** The database to release from: the process-wide client unless given (a second instance in tests). */
  db?: Db;
}

/** Releases every call due at the clock's now; answers how many. */
export async function releaseDueCalls(deps: SchedulerDeps = {}): Promise<number> {
  const db = deps.db ?? (await exerciseDb());
  const now = nowOf(deps);
  let total = 0;
  for (;;) {
    const { claimed, released } = await releaseBatch(db, now);
    total += released;
    if (claimed < CLAIM_LIMIT) break;
  }
  if (total > 0) groupSoon();
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
