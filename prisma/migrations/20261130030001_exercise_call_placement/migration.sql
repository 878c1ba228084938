-- How exact each planned exercise call's point is and who placed it (docs/simulation.md, "Where
-- generated calls are"): the generator places an address on the centre's GIS data or the scenario
-- street set, and the scheduler stores the call with it. Calls planned before were random points
-- near their area's centre: a locality, 3 km, placed by the generator.
ALTER TABLE "exercise_calls"
  ADD COLUMN "location_source" TEXT NOT NULL DEFAULT 'generator',
  ADD COLUMN "location_precision" TEXT NOT NULL DEFAULT 'locality',
  ADD COLUMN "location_uncertainty_m" DOUBLE PRECISION NOT NULL DEFAULT 3000;

ALTER TABLE "exercise_calls"
  ALTER COLUMN "location_source" DROP DEFAULT,
  ALTER COLUMN "location_precision" DROP DEFAULT,
  ALTER COLUMN "location_uncertainty_m" DROP DEFAULT;
