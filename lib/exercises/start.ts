import type { Actor } from "../access/actor";
import { type Clock, transition } from "./exercise-rows";

/** planned -> running: exercise time starts at 0 now. */
export const startExercise = (id: string, actor: Actor, clock: Clock = {}) =>
  transition(id, "start", actor, ["planned"], clock, (db, now) => db.$queryRaw`
    UPDATE exercises SET state = 'running', started_at = ${now}, running_since = ${now}, elapsed_ms = 0
    WHERE id = ${id} AND state = 'planned' RETURNING id`);
