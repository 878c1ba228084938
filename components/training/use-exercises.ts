"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { controlExercise, createExercise, type ExerciseAction, type ExerciseRequest, isLive, listExercises } from "./exercise-api";
import { rereadQueries } from "../shared/reread";

/** Progress is read every 2 s while an exercise runs, every 15 s otherwise (one small query). */
export function useExercises() {
  return useQuery({
    queryKey: ["exercises"],
    queryFn: listExercises,
    refetchInterval: (query) => (query.state.data?.exercises.some(isLive) ? 2_000 : 15_000),
  });
}

/** The exercise the panel and banner show: the live one, else the latest. */
export function useCurrentExercise() {
  const exercises = useExercises();
  const list = exercises.data?.exercises ?? [];
  return { ...exercises, current: list.find(isLive) ?? list[0] ?? null, live: list.find(isLive) ?? null };
}

export function useExerciseActions() {
  const client = useQueryClient();
  const refresh = () => rereadQueries(client, { queryKey: ["exercises"] });
  const create = useMutation({ mutationFn: (body: ExerciseRequest) => createExercise(body), onSuccess: refresh });
  const control = useMutation({
    mutationFn: ({ id, action }: { id: string; action: ExerciseAction }) => controlExercise(id, action),
    onSuccess: refresh,
  });
  return { create, control };
}
