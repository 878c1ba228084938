import { randomInt } from "node:crypto";
import { bumpCallsVersion } from "../calls/cache";
import type { Db } from "../db/client";
import { log } from "../log";
import { formatCallId, type SimulatedCall } from "../simulation/generate";
import { insertSimulatedRows } from "../simulation/store";
import { type Clock, elapsedMsAt, exerciseDb, nowOf } from "./store";

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
/** The call-store table name exercise calls are written under. */
export const EXERCISE_TABLE_NAME = "exercise-calls";

const randomCallNumber = () => randomInt(100_000_000_000, 1_000_000_000_000);

interface DueCall {
  exercise_id: string;
  seq: number;
  abandoned: boolean;
  record: SimulatedCall;
  elapsed_ms: number;
}

/** Releases one batch of due calls at `now`; answers how many were released. */
async function releaseBatch(db: Db, now: Date): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const due = await tx.$queryRaw<DueCall[]>`
        SELECT c.exercise_id, c.seq, c.abandoned, c.record, ${elapsedMsAt(now)}::float8 AS elapsed_ms
        FROM exercise_calls c JOIN exercises e ON e.id = c.exercise_id
        WHERE e.state = 'running' AND c.released_at IS NULL AND c.due_offset_ms <= ${elapsedMsAt(now)}
        ORDER BY c.exercise_id, c.due_offset_ms, c.seq
        LIMIT ${CLAIM_LIMIT}
        FOR UPDATE OF c SKIP LOCKED`;
      const timestamp = Math.floor(now.getTime() / 1000);
      const byExercise = new Map<string, DueCall[]>();
      for (const row of due) {
        const group = byExercise.get(row.exercise_id);
        if (group) group.push(row);
        else byExercise.set(row.exercise_id, [row]);
      }
      let released = 0;
      for (const [exerciseId, rows] of byExercise) {
        // The call happens now: its times and id are the release's (the content is the plan's).
        const calls = rows.map((row) => ({
          row,
          call: {
            ...row.record,
            timestamp,
            created_at: now.toISOString(),
            call_id: formatCallId(row.record.scenario, timestamp, randomCallNumber()),
          },
        }));
        const inserted = await insertSimulatedRows(
          tx,
          EXERCISE_TABLE_NAME,
          calls.map(({ row, call }) => ({ call, status: row.abandoned ? "failed" : "active" })),
          exerciseId,
        );
        // A call whose new id happened to be taken stays unreleased and gets another id next tick.
        const stored = calls.filter(({ call }) => inserted.has(call.call_id));
        await tx.$executeRaw`
          UPDATE exercise_calls c SET released_at = ${now}, released_offset_ms = floor(r.offset_ms), call_id = r.call_id
          FROM unnest(${stored.map(({ row }) => row.seq)}::int[], ${stored.map(({ call }) => inserted.get(call.call_id)!)}::text[],
            ${stored.map(({ row }) => row.elapsed_ms)}::float8[]) AS r(seq, call_id, offset_ms)
          WHERE c.exercise_id = ${exerciseId} AND c.seq = r.seq`;
        released += stored.length;
      }
      // Running exercises past their end with every call out are complete; ended at their exact end.
      await tx.$executeRaw`
        UPDATE exercises e SET state = 'completed', elapsed_ms = e.duration_minutes * 60000.0, running_since = NULL,
          ended_at = e.running_since + (e.duration_minutes * 60000.0 - e.elapsed_ms) / e.speed * interval '1 millisecond'
        WHERE e.state = 'running' AND ${elapsedMsAt(now)} >= e.duration_minutes * 60000.0
          AND NOT EXISTS (SELECT 1 FROM exercise_calls c WHERE c.exercise_id = e.id AND c.released_at IS NULL)`;
      return released;
    },
    { timeout: 30_000 },
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
    const released = await releaseBatch(db, now);
    total += released;
    if (released < CLAIM_LIMIT) break;
  }
  // The listing must show them on the next read.
  if (total > 0) await bumpCallsVersion();
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
  const tick = () => {
    current = releaseDueCalls(options)
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error }, "exercise scheduler tick failed"))
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
