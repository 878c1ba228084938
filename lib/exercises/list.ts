import type { ExerciseView } from "./schema";
import { type Clock, exerciseDb, nowOf, readExercise, readExercises } from "./exercise-rows";

/** The latest exercises (50), newest first, with their progress. */
export async function listExercises(clock: Clock = {}): Promise<{ exercises: ExerciseView[] }> {
  return { exercises: await readExercises(await exerciseDb(), nowOf(clock)) };
}

export async function getExercise(id: string, clock: Clock = {}): Promise<ExerciseView> {
  return readExercise(await exerciseDb(), nowOf(clock), id);
}
