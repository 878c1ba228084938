"use client";

import type { ExerciseVisibility } from "@/lib/board/exercise-visibility";
import { storedSetting } from "../shared/stored-setting";

/**
 * The dispatcher's "hide exercise calls" choice, kept in localStorage so it survives a reload.
 * The live queries carry it as `exercises=hide` (docs/exercises.md): the server leaves exercise
 * calls out of every count, row and group; the browser filters nothing.
 */
const visibility = storedSetting<ExerciseVisibility>("mayday.exercises", ["show", "hide"], "show");

export const setExerciseVisibility = visibility.set;
export const useExerciseVisibility = visibility.useValue;
