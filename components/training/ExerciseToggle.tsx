"use client";

import { setExerciseVisibility, useExerciseVisibility } from "./exercise-visibility";

/** "Hide exercise calls": the board, queue, map and chart are read again without them. */
export function ExerciseToggle() {
  const hidden = useExerciseVisibility() === "hide";
  return (
    <label className="exercise-toggle">
      <input type="checkbox" checked={hidden} onChange={(event) => setExerciseVisibility(event.target.checked ? "hide" : "show")} />
      Hide exercise calls
    </label>
  );
}
