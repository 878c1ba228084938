import type { Actor } from "../access/actor";
import { writeCalls } from "../calls/write/write-calls";
import { standDownExerciseUnits } from "../units/crews";
import { type Clock, elapsedMsAt, transition } from "./exercise-rows";

/**
 * running or paused -> stopped, for good: calls not yet released never will be, and the released
 * ones still open are closed by the exercise's end, and its simulated units stand down
 * (docs/exercises.md, "When an exercise ends").
 */
export async function stopExercise(id: string, actor: Actor, clock: Clock = {}) {
  const stopped = await transition(id, "stop", actor, ["running", "paused"], clock, (db, now) => db.$queryRaw`
    UPDATE exercises e SET state = 'stopped', elapsed_ms = ${elapsedMsAt(now)}, running_since = NULL, ended_at = ${now}
    WHERE e.id = ${id} AND e.state IN ('running', 'paused') RETURNING e.id`);
  await writeCalls(async (writes) => {
    await standDownExerciseUnits(writes, id);
    await writes.closeExerciseCalls(id);
  });
  return stopped;
}
