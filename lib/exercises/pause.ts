import type { Actor } from "../access/actor";
import { type Clock, elapsedMsAt, transition } from "./exercise-rows";

/** running -> paused: the exercise time so far is kept, and no call falls due until resumed. */
export const pauseExercise = (id: string, actor: Actor, clock: Clock = {}) =>
  transition(id, "pause", actor, ["running"], clock, (db, now) => db.$queryRaw`
    UPDATE exercises e SET state = 'paused', elapsed_ms = ${elapsedMsAt(now)}, running_since = NULL
    WHERE e.id = ${id} AND e.state = 'running' RETURNING e.id`);
