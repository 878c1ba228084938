import type { Actor } from "../access/actor";
import { type Clock, elapsedMsAt, transition } from "./exercise-rows";

/** running or paused -> stopped, for good: calls not yet released never will be. */
export const stopExercise = (id: string, actor: Actor, clock: Clock = {}) =>
  transition(id, "stop", actor, ["running", "paused"], clock, (db, now) => db.$queryRaw`
    UPDATE exercises e SET state = 'stopped', elapsed_ms = ${elapsedMsAt(now)}, running_since = NULL, ended_at = ${now}
    WHERE e.id = ${id} AND e.state IN ('running', 'paused') RETURNING e.id`);
