"use client";

import { useSyncExternalStore } from "react";
import type { ExerciseVisibility } from "@/lib/live/visibility";

/**
 * The dispatcher's "hide exercise calls" choice, kept in localStorage so it survives a reload.
 * The live queries carry it as `exercises=hide` (docs/exercises.md): the server leaves exercise
 * calls out of every count, row and group; the browser filters nothing.
 */

const STORAGE_KEY = "mayday.exercises";
const listeners = new Set<() => void>();

function read(): ExerciseVisibility {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "hide" ? "hide" : "show";
  } catch {
    return "show";
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setExerciseVisibility(visibility: ExerciseVisibility): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, visibility);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  listeners.forEach((listener) => listener());
}

export function useExerciseVisibility(): ExerciseVisibility {
  return useSyncExternalStore(subscribe, read, () => "show");
}
