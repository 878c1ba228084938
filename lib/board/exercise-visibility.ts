import { Prisma } from "../db/generated/client";
import { EXERCISE_TABLE_NAME } from "../vocabulary";

/**
 * `exercises=hide` on the live endpoints: leave out the calls of training exercises
 * (docs/exercises.md). An exercise call is a simulated call written under the exercise table
 * name; the count tables (call_counts, call_hour_counts) are keyed by both, so the board excludes
 * them exactly without reading calls. A webhook call is never simulated, so it is never hidden.
 * The name is a literal, not a parameter, so the condition reads the same in every plan.
 */
export type ExerciseVisibility = "show" | "hide";

const notExercise = Prisma.raw(`NOT (simulation AND table_name = '${EXERCISE_TABLE_NAME}')`);

/** The condition a row must meet to be shown, for a WHERE list; null when every call is shown. */
export function exerciseCondition(visibility: ExerciseVisibility): Prisma.Sql | null {
  return visibility === "hide" ? notExercise : null;
}

/** ` AND <condition>` when exercise calls are hidden, else nothing. */
export function andShown(visibility: ExerciseVisibility): Prisma.Sql {
  return visibility === "hide" ? Prisma.sql` AND ${notExercise}` : Prisma.empty;
}

/**
 * ` AND <condition>` on an incidents row (alias `alias`) when exercise calls are hidden: the
 * incident has no exercise call. Exercise calls are not grouped (each has an incident of its own),
 * so this hides exactly the exercises' incidents; one probe of calls (incident_id, simulation,
 * table_name) per incident, whatever the incident's size.
 */
export function andIncidentShown(visibility: ExerciseVisibility, alias: string): Prisma.Sql {
  if (visibility === "show") return Prisma.empty;
  return Prisma.sql` AND NOT EXISTS (SELECT 1 FROM calls x WHERE x.incident_id = ${Prisma.raw(`${alias}.id`)} AND x.simulation AND x.table_name = ${Prisma.raw(`'${EXERCISE_TABLE_NAME}'`)})`;
}
