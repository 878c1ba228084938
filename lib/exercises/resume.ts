import type { Actor } from "../access/actor";
import { type Clock, transition } from "./exercise-rows";

/** paused -> running: exercise time runs on from where it was paused. */
export const resumeExercise = (id: string, actor: Actor, clock: Clock = {}) =>
  transition(id, "resume", actor, ["paused"], clock, (db, now) => db.$queryRaw`
    UPDATE exercises SET state = 'running', running_since = ${now}
    WHERE id = ${id} AND state = 'paused' RETURNING id`);
