-- Grouping decides only when sure (docs/incidents.md, "Grouping"): incident_for_call also takes the
-- call's callback number and whether its type is an emergency of a place. CREATE OR REPLACE cannot
-- change a function's arguments: it is dropped here, and prisma/functions/incident_for_call.sql
-- creates it again.
DROP FUNCTION IF EXISTS "incident_for_call"(TEXT, TEXT, TIMESTAMPTZ, DOUBLE PRECISION, DOUBLE PRECISION, TEXT,
  BOOLEAN, TEXT, DOUBLE PRECISION, DOUBLE PRECISION, TEXT);

-- An incident's point is the centre of its most precise located calls (located_count counts them),
-- and its radius is that point's: the largest uncertainty among those calls (null: none known).
ALTER TABLE "incidents" ADD COLUMN "location_uncertainty_m" DOUBLE PRECISION;

-- The address the centre's GIS matched, in its standard form (null: another source placed the
-- point): a call's, and an incident's (its first call's), shown with the caller's words beside it.
ALTER TABLE "calls" ADD COLUMN "location_matched" TEXT;
ALTER TABLE "incidents" ADD COLUMN "location_matched" TEXT;

-- Possible duplicates: two open incidents close in place and time that grouping did not join
-- (docs/incidents.md, "Possible duplicates"). One row per pair, the smaller id first; a dispatcher
-- merges the pair (the merged incident's rows go with it) or dismisses it (dismissed_at). Written in
-- the statement that places a call, before the statement trigger creates the call's own incident:
-- the references are checked at commit. In the change feed like an acknowledgement, at each write.
CREATE TABLE "incident_duplicates" (
    "id" BIGSERIAL PRIMARY KEY,
    "incident_id" TEXT NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    "other_id" TEXT NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    "distance_m" DOUBLE PRECISION NOT NULL,
    "seconds_apart" INTEGER NOT NULL,
    "found_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "dismissed_at" TIMESTAMPTZ(3),
    "dismissed_by" TEXT,
    "dismissed_by_name" TEXT,
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "incident_duplicates_pair_order" CHECK ("incident_id" < "other_id")
);

CREATE UNIQUE INDEX "incident_duplicates_incident_id_other_id_key" ON "incident_duplicates"("incident_id", "other_id");
CREATE INDEX "incident_duplicates_other_id_idx" ON "incident_duplicates"("other_id");
CREATE INDEX "incident_duplicates_change_number_idx" ON "incident_duplicates"("change_number");

CREATE TRIGGER "incident_duplicates_change_lock" BEFORE INSERT OR UPDATE ON "incident_duplicates"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "incident_duplicates_change_stamp" BEFORE INSERT OR UPDATE ON "incident_duplicates"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
CREATE TRIGGER "incident_duplicates_changed_notify" AFTER INSERT OR UPDATE ON "incident_duplicates"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();
