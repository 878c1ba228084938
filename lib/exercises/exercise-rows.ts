import { type Db, getDb } from "../db/client";
import { Prisma } from "../db/generated/client";
import { databaseError, DomainError, notFound } from "../domain-error";
import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import type { AuditAction } from "../audit/schema";
import type { ExerciseAction, ExerciseState, ExerciseView } from "./schema";
import type { SurgeShape } from "./shapes";

/** The clock every exercise function reads: injected in tests, the wall clock otherwise. */
export interface Clock {
  now?: () => Date;
}
export const nowOf = (clock: Clock) => clock.now?.() ?? new Date();

export async function exerciseDb(): Promise<Db> {
  try {
    return await getDb();
  } catch (error) {
    throw databaseError(error);
  }
}

/**
 * Exercise time elapsed (ms) at wall time `now`, capped at the exercise's duration: what accrued
 * before the last start or resume, plus the wall time since then at the exercise's speed.
 */
export const elapsedMsAt = (now: Date, alias = "e") => {
  const e = Prisma.raw(alias);
  return Prisma.sql`LEAST(${e}.duration_minutes * 60000.0, CASE WHEN ${e}.running_since IS NULL THEN ${e}.elapsed_ms
    ELSE ${e}.elapsed_ms + EXTRACT(EPOCH FROM (${now}::timestamptz - ${e}.running_since)) * 1000 * ${e}.speed END)`;
};

interface ExerciseRow {
  id: string;
  scenario: string;
  shape: SurgeShape;
  duration_minutes: number;
  planned_calls: number;
  speed: number;
  abandoned_share: number;
  live_share: number;
  seed: bigint;
  state: ExerciseState;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  elapsed_ms: number;
  released: number;
  last_minute: number;
}

/** Exercises with their progress at `now`, newest first; one when `id` is given. */
export async function readExercises(db: Db, now: Date, id?: string, limit = 50): Promise<ExerciseView[]> {
  const rows = await db.$queryRaw<ExerciseRow[]>`
    SELECT e.id, e.scenario, e.shape, e.duration_minutes, e.planned_calls, e.speed, e.abandoned_share, e.live_share, e.seed,
      e.state, e.created_at, e.started_at, e.ended_at, ${elapsedMsAt(now)}::float8 AS elapsed_ms,
      p.released, p.last_minute
    FROM exercises e
    CROSS JOIN LATERAL (
      SELECT count(c.released_at)::int AS released,
        count(*) FILTER (WHERE c.released_offset_ms > ${elapsedMsAt(now)} - 60000)::int AS last_minute
      FROM exercise_calls c WHERE c.exercise_id = e.id
    ) p
    WHERE ${id === undefined ? Prisma.sql`TRUE` : Prisma.sql`e.id = ${id}`}
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT ${limit}`;
  return rows.map((row) => {
    const durationMs = row.duration_minutes * 60_000;
    const remainingMs = ["stopped", "completed"].includes(row.state) ? 0 : Math.max(0, durationMs - row.elapsed_ms);
    return {
      id: row.id,
      scenario: row.scenario,
      shape: row.shape,
      duration_minutes: row.duration_minutes,
      planned_calls: row.planned_calls,
      speed: row.speed,
      abandoned_share: row.abandoned_share,
      live_share: row.live_share,
      seed: Number(row.seed),
      state: row.state,
      created_at: row.created_at.toISOString(),
      started_at: row.started_at?.toISOString() ?? null,
      ended_at: row.ended_at?.toISOString() ?? null,
      progress: {
        released: row.released,
        planned: row.planned_calls,
        calls_per_minute: row.state === "running" ? row.last_minute : 0,
        elapsed_seconds: Math.round(row.elapsed_ms) / 1000,
        remaining_seconds: Math.round(remainingMs) / 1000,
        remaining_wall_seconds: Math.round(remainingMs / row.speed) / 1000,
      },
    };
  });
}

export async function readExercise(db: Db, now: Date, id: string): Promise<ExerciseView> {
  const [exercise] = await readExercises(db, now, id, 1);
  if (!exercise) throw notFound(`No exercise with id ${id}`);
  return exercise;
}

const AUDITED = {
  start: "exercise.started",
  pause: "exercise.paused",
  resume: "exercise.resumed",
  stop: "exercise.stopped",
} as const satisfies Record<ExerciseAction, AuditAction>;

/**
 * Moves an exercise from one of `from` states with `update` (an UPDATE ... WHERE id AND state IN
 * from, returning the id), audited in the same transaction; INVALID_TRANSITION when it is in another state, NOT_FOUND when absent.
 */
export async function transition(
  id: string,
  action: ExerciseAction,
  actor: Actor,
  from: readonly ExerciseState[],
  clock: Clock,
  update: (db: Pick<Db, "$queryRaw">, now: Date) => Promise<unknown[]>,
): Promise<ExerciseView> {
  const db = await exerciseDb();
  const now = nowOf(clock);
  const changed = await db.$transaction(async (tx) => {
    const rows = await update(tx, now);
    if (rows.length > 0) await recordAudit(tx, actor, { action: AUDITED[action], target: { kind: "exercise", id } });
    return rows;
  });
  const exercise = await readExercise(db, now, id);
  if (changed.length === 0) {
    throw new DomainError("INVALID_TRANSITION", `Cannot ${action} an exercise that is ${exercise.state} (only when ${from.join(" or ")})`);
  }
  return exercise;
}
