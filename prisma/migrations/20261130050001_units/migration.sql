-- Units (lib/units, docs/units.md): the roster of engines, ambulances and patrol cars, each in one
-- state (lib/units/states.ts names them), every state change a row, and the units an incident was
-- sent. Every row takes a change number from the feed's sequence under the feed's lock (the same
-- trigger functions as calls and notes), so the feed's head moves with each unit change and the
-- outbound events unit.state_changed and unit.assigned derive from the rows' stamps.
CREATE TABLE "units" (
    "id" TEXT PRIMARY KEY,
    "call_sign" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "station" TEXT,
    "station_latitude" DOUBLE PRECISION,
    "station_longitude" DOUBLE PRECISION,
    -- The latest state (its history in unit_state_changes) and the incident it serves.
    "state" TEXT NOT NULL,
    "state_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "incident_id" TEXT REFERENCES "incidents"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    -- The last position reported with a state change or by POST /api/units/{id}/position.
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "position_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX "units_call_sign_key" ON "units" (lower("call_sign"));
CREATE INDEX "units_change_number_idx" ON "units" ("change_number");
CREATE INDEX "units_incident_id_idx" ON "units" ("incident_id");

CREATE TABLE "unit_state_changes" (
    "id" BIGSERIAL PRIMARY KEY,
    "unit_id" TEXT NOT NULL REFERENCES "units"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "from_state" TEXT,
    "state" TEXT NOT NULL,
    "incident_id" TEXT,
    -- When the move was made (clock_timestamp, under the feed's lock: the rows' order).
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "changed_by" TEXT NOT NULL,
    "changed_by_name" TEXT NOT NULL,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "unit_state_changes_unit_id_id_idx" ON "unit_state_changes" ("unit_id", "id" DESC);
CREATE INDEX "unit_state_changes_change_number_idx" ON "unit_state_changes" ("change_number");

CREATE TABLE "unit_assignments" (
    "id" BIGSERIAL PRIMARY KEY,
    "unit_id" TEXT NOT NULL REFERENCES "units"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "incident_id" TEXT NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "assigned_by" TEXT NOT NULL,
    "assigned_by_name" TEXT NOT NULL,
    -- Set when the unit was assigned without being available (its state then).
    "confirmed_from_state" TEXT,
    "cleared_at" TIMESTAMPTZ(3),
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
-- A unit serves at most one incident at a time: the database refuses a second open assignment
-- whatever the application's locks (a confirmed reassignment closes the first).
CREATE UNIQUE INDEX "unit_assignments_open_key" ON "unit_assignments" ("unit_id") WHERE "cleared_at" IS NULL;
CREATE INDEX "unit_assignments_incident_id_idx" ON "unit_assignments" ("incident_id") WHERE "cleared_at" IS NULL;
CREATE INDEX "unit_assignments_change_number_idx" ON "unit_assignments" ("change_number");

CREATE TRIGGER "units_change_lock" BEFORE INSERT OR UPDATE ON "units"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "units_change_stamp" BEFORE INSERT OR UPDATE ON "units"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
CREATE TRIGGER "units_changed_notify" AFTER INSERT OR UPDATE ON "units"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();
CREATE TRIGGER "unit_state_changes_change_lock" BEFORE INSERT ON "unit_state_changes"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "unit_state_changes_change_stamp" BEFORE INSERT ON "unit_state_changes"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
-- An assignment is numbered when it is made (unit.assigned); its clearing is the unit's state change.
CREATE TRIGGER "unit_assignments_change_lock" BEFORE INSERT OR UPDATE ON "unit_assignments"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "unit_assignments_change_stamp" BEFORE INSERT ON "unit_assignments"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();

-- A state change is history: never edited.
CREATE TRIGGER "unit_state_changes_append_only" BEFORE UPDATE OR DELETE ON "unit_state_changes"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

-- A merged-away incident's units move with its calls: trigger incident_merges_units, created with
-- its function in prisma/functions/unit_assignments_follow_merge.sql (a trigger needs its function,
-- and migrations define none).
