import { type Actor, actorRef } from "../../access/actor";
import type { Db } from "../../db/client";
import type { CallStatus } from "../../vocabulary";

type Tx = Pick<Db, "$executeRaw">;

/**
 * One call's move, with its history row naming the actor. A history row's time is when the move
 * was made (clock_timestamp, under the locks), not when its transaction began: of concurrent moves
 * of one call, the history lists them in the order they were made.
 */
export async function setCallStatus(tx: Tx, call: { id: string; status: CallStatus }, status: CallStatus, actor: Actor): Promise<void> {
  await tx.$executeRaw`
    WITH moved AS (UPDATE calls SET status = ${status}, updated_at = CURRENT_TIMESTAMP WHERE id = ${call.id} RETURNING id)
    INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by, changed_by_name)
    SELECT id, ${call.status}, ${status}, clock_timestamp(), ${actorRef(actor)}, ${actor.name} FROM moved`;
}

/**
 * An ended exercise's calls still open, closed by the exercise's end (docs/exercises.md, "When an
 * exercise ends"): `failed`, not `resolved`, which the debrief would count as a dispatch; each with
 * its history row naming the end, not a person. They leave the live picture and its counts, and
 * their incidents close with them (incidents_close_with_calls).
 */
export async function closeExerciseCalls(tx: Tx, exerciseId: string, open: readonly CallStatus[]): Promise<number> {
  // Its live calls still unfolding end with it: off the line (their steps are never done).
  await tx.$executeRaw`
    UPDATE calls SET on_line = false, live_ended_at = COALESCE(live_ended_at, now()), updated_at = CURRENT_TIMESTAMP
    WHERE exercise_id = ${exerciseId} AND on_line`;
  return tx.$executeRaw`
    WITH moved AS (
      UPDATE calls c SET status = 'failed', updated_at = CURRENT_TIMESTAMP
      FROM (SELECT id, status FROM calls WHERE exercise_id = ${exerciseId} AND status = ANY(${open}::text[]) FOR UPDATE) o
      WHERE c.id = o.id
      RETURNING c.id, o.status AS from_status
    )
    INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by, changed_by_name)
    SELECT id, from_status, 'failed', clock_timestamp(), ${EXERCISE_END}, 'Exercise ended' FROM moved`;
}

/** The history rows' `changed_by` of calls closed by their exercise's end. */
export const EXERCISE_END = "exercise:end";

/** Moves an incident's calls that are in one of `from` to `status`, each with its history row. */
export async function setIncidentCallsStatus(tx: Tx, incidentId: string, from: readonly CallStatus[], status: CallStatus, actor: Actor): Promise<number> {
  return tx.$executeRaw`
    WITH moved AS (
      UPDATE calls c SET status = ${status}, updated_at = CURRENT_TIMESTAMP
      FROM (SELECT id, status FROM calls WHERE incident_id = ${incidentId} AND status = ANY(${from}::text[]) FOR UPDATE) o
      WHERE c.id = o.id
      RETURNING c.id, o.status AS from_status
    )
    INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by, changed_by_name)
    SELECT id, from_status, ${status}, clock_timestamp(), ${actorRef(actor)}, ${actor.name} FROM moved`;
}
