import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type Db, getDb } from "@/lib/db/client";
import { PrismaClient } from "@/lib/db/generated/client";
import { releaseDueCalls } from "@/lib/exercises/scheduler";

/** A clock the test moves by hand: exercise code reads `now()`. */
export function manualClock(start = Date.UTC(2026, 10, 23, 9, 0, 0)) {
  let current = start;
  return {
    now: () => new Date(current),
    /** Moves the wall clock on by `ms`. */
    advance(ms: number) {
      current += ms;
    },
    set(ms: number) {
      current = ms;
    },
    get ms() {
      return current;
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;

/**
 * Ticks the scheduler over `exerciseMs` of exercise time in steps of `stepMs` (exercise time) at
 * `speed`, the wall clock moving `step / speed` each tick. Answers the calls released.
 */
export async function runFor(
  clock: ManualClock,
  exerciseMs: number,
  options: { speed: number; stepMs: number; db?: Db },
): Promise<number> {
  let released = 0;
  for (let done = 0; done < exerciseMs; done += options.stepMs) {
    clock.advance(options.stepMs / options.speed);
    released += await releaseDueCalls({ now: clock.now, db: options.db });
  }
  return released;
}

/** A second app instance's own database client on the same database as getDb(). */
export async function secondInstance(applicationName: string): Promise<{ db: Db; close(): Promise<void> }> {
  await getDb();
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, application_name: applicationName, max: 4 });
  // A backend terminated under the pool is an expected event in these tests, not a crash.
  pool.on("error", () => {});
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    db,
    close: async () => {
      await db.$disconnect().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
