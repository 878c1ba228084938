-- Incidents, their merges and notes stamped in the change feed's sequence (docs/integrations.md,
-- "Events"): an incident row takes the next change number whenever it is written (its status
-- moved, a call joined or left it, its aggregates changed) and keeps the change at which it was
-- first written not waiting for the grouper (announced_change), so incident.created and
-- incident.updated derive from the incident itself, also when none of its calls changed (a split
-- leaves it, a status move moves none of them). An incident that ceases to exist because its calls
-- moved elsewhere (a merge, a correction) leaves a row in incident_merges naming where they went
-- (incident.merged, and its EIDO answered with the merge). A note keeps the change at which it was
-- kept (announced_change), so a note moved by a merge is not announced twice.
ALTER TABLE "incidents" ADD COLUMN "change_number" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  ADD COLUMN "announced_change" BIGINT,
  -- The incident a split took this one's call from (its EIDO's merge and link components).
  ADD COLUMN "split_from" TEXT;
ALTER TABLE "incident_notes" ADD COLUMN "announced_change" BIGINT;

-- Existing incidents: announced with their first announced call, last changed with their latest call.
UPDATE "incidents" i SET "change_number" = COALESCE(m.latest, 0), "announced_change" = m.first_announced
FROM (SELECT incident_id, max(change_number) AS latest, min(announced_change) AS first_announced FROM calls GROUP BY incident_id) m
WHERE m.incident_id = i.id;
-- Their numbers stay as they are: the feed's triggers are off for this one statement.
ALTER TABLE "incident_notes" DISABLE TRIGGER USER;
UPDATE "incident_notes" SET "announced_change" = "change_number";
ALTER TABLE "incident_notes" ENABLE TRIGGER USER;

CREATE TABLE "incident_merges" (
    "merged_id" TEXT PRIMARY KEY,
    "into_id" TEXT NOT NULL,
    -- The merged-away incident as GET /api/incidents listed it just before it ceased to exist.
    "record" JSONB NOT NULL,
    -- Its kind and scenario, for subscriptions' filters.
    "simulation" BOOLEAN NOT NULL,
    "scenario" TEXT,
    "merged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE INDEX "incidents_change_number_idx" ON "incidents" ("change_number");
CREATE INDEX "incidents_announced_change_idx" ON "incidents" ("announced_change");
CREATE INDEX "incident_notes_announced_change_idx" ON "incident_notes" ("announced_change");
CREATE INDEX "incidents_split_from_idx" ON "incidents" ("split_from");
CREATE INDEX "incident_merges_change_number_idx" ON "incident_merges" ("change_number");
CREATE INDEX "incident_merges_into_id_idx" ON "incident_merges" ("into_id");

CREATE TRIGGER "incidents_change_lock" BEFORE INSERT OR UPDATE ON "incidents"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "incidents_change_stamp" BEFORE INSERT OR UPDATE ON "incidents"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
CREATE TRIGGER "incidents_changed_notify" AFTER INSERT OR UPDATE ON "incidents"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();
CREATE TRIGGER "incident_merges_change_lock" BEFORE INSERT ON "incident_merges"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "incident_merges_change_stamp" BEFORE INSERT ON "incident_merges"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
