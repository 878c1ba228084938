import { type Clock, transition } from "./store";

/** planned -> running: exercise time starts at 0 now. */
export const startExercise = (id: string, clock: Clock = {}) =>
  transition(id, "start", ["planned"], clock, (db, now) => db.$queryRaw`
    UPDATE exercises SET state = 'running', started_at = ${now}, running_since = ${now}, elapsed_ms = 0
    WHERE id = ${id} AND state = 'planned' RETURNING id`);
