import { Prisma } from "../db/generated/client";
import type { ReportCalls } from "./schema";

/** What a report covers (docs/reports.md): the kind of calls and the window. */
export interface IntervalScope {
  calls: ReportCalls;
  /** With `exercise` or `both`: that exercise's calls only; undefined: every exercise's. */
  exerciseId?: string;
  /** Inclusive bounds on a call's arrival (a unit's assignment for the units' figures); undefined: unbounded. */
  from?: Date;
  to?: Date;
}

/**
 * The scope's kind (real, an exercise's, both) on the rows of `alias`: calls, or incidents, which
 * take their kind from their first call (the same two columns).
 */
export function kindCondition(scope: Pick<IntervalScope, "calls" | "exerciseId">, alias: string): Prisma.Sql {
  const row = Prisma.raw(alias);
  const exercise = scope.exerciseId === undefined ? Prisma.sql`${row}.exercise_id IS NOT NULL` : Prisma.sql`${row}.exercise_id = ${scope.exerciseId}`;
  const real = Prisma.sql`NOT ${row}.simulation`;
  return scope.calls === "real" ? real : scope.calls === "exercise" ? exercise : Prisma.sql`(${real} OR ${exercise})`;
}

