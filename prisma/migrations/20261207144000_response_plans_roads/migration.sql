-- The road attributes of the centre's centrelines, as NENA-STA-006 names them: RoadClass,
-- SpeedLimit (miles per hour, as posted) and OneWay (B both ways, FT from the FromAddr end to the
-- ToAddr end, TF the other way). The road network's speeds and directions
-- (lib/geocoding/centre/road-network.ts, docs/units.md "Travel time on the roads").
ALTER TABLE "gis_centrelines" ADD COLUMN "road_class" TEXT, ADD COLUMN "speed_limit" INTEGER, ADD COLUMN "one_way" TEXT;

-- A centre's response plans (run cards): per emergency type and severity, the unit types and counts
-- the recommendation fills (lib/units/plans.ts, docs/units.md "Response plans"). A pair without a
-- row takes the default plan of lib/units/plan-defaults.ts. Numbered from the change feed like units.
CREATE TABLE "response_plans" (
    "emergency_type" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "slots" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_by" TEXT NOT NULL,
    "updated_by_name" TEXT NOT NULL,
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "response_plans_pkey" PRIMARY KEY ("emergency_type", "severity")
);
CREATE INDEX "response_plans_change_number_idx" ON "response_plans" ("change_number");

CREATE TRIGGER "response_plans_change_lock" BEFORE INSERT OR UPDATE ON "response_plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "response_plans_change_stamp" BEFORE INSERT OR UPDATE ON "response_plans"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
CREATE TRIGGER "response_plans_changed_notify" AFTER INSERT OR UPDATE ON "response_plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();
