-- Exercises that release live calls (docs/exercises.md, "Live calls"): the share of answered calls
-- that unfold on the line, each planned call's script, and the scheduler's next step of it.
ALTER TABLE "exercises" ADD COLUMN "live_share" DOUBLE PRECISION NOT NULL DEFAULT 0;

ALTER TABLE "exercise_calls" ADD COLUMN "live_script" JSONB,
  ADD COLUMN "next_step" INTEGER,
  ADD COLUMN "next_step_due_ms" INTEGER;

-- The scheduler's claim of live steps: the due ones of calls still unfolding.
CREATE INDEX "exercise_calls_next_step_idx" ON "exercise_calls"("exercise_id", "next_step_due_ms") WHERE "next_step_due_ms" IS NOT NULL;
