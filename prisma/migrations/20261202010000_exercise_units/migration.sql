-- An exercise's simulated units (docs/exercises.md, "Simulated units"): made with the exercise,
-- serving only its incidents, their crews reporting each state by themselves (lib/units/crews.ts).
-- Null: a unit of the centre's own roster.
ALTER TABLE "units" ADD COLUMN "exercise_id" TEXT REFERENCES "exercises"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The crews' step: an exercise's units that serve an incident.
CREATE INDEX "units_exercise_id_idx" ON "units"("exercise_id") WHERE "exercise_id" IS NOT NULL;
