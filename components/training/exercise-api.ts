/** The exercise API as the dashboard uses it (docs/exercises.md). Client-side code only. */

import type { CreateExerciseRequest, Debrief, ExerciseAction, ExerciseView } from "@/lib/exercises/schema";
import { request } from "../shared/api";

export type { Debrief, ExerciseAction, ExerciseView };
export type ExerciseRequest = Partial<Omit<CreateExerciseRequest, "seed">>;

export function listExercises(): Promise<{ exercises: ExerciseView[] }> {
  return request("/api/exercises");
}

export function createExercise(body: ExerciseRequest): Promise<ExerciseView> {
  return request("/api/exercises", { method: "POST", body: JSON.stringify(body) });
}

export function controlExercise(id: string, action: ExerciseAction): Promise<ExerciseView> {
  // The controls take no body.
  return request(`/api/exercises/${encodeURIComponent(id)}/${action}`, { method: "POST" });
}

export function getDebrief(id: string): Promise<Debrief> {
  return request(`/api/exercises/${encodeURIComponent(id)}/debrief`);
}

export const debriefCsvUrl = (id: string) => `/api/exercises/${encodeURIComponent(id)}/debrief.csv`;

/** An exercise whose calls may still arrive: the dashboard shows the EXERCISE banner for it. */
export const isLive = (exercise: ExerciseView) => exercise.state === "running" || exercise.state === "paused";
