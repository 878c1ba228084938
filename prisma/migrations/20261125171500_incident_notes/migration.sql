-- Incident notes (lib/notes, docs/incidents.md "Notes"): the dispatchers' narrative, append-only.
-- A note is part of the change feed: it takes the feed's lock and the next change number like a
-- call does (the same trigger functions), so GET /api/calls/changes and the stream carry it.
CREATE TABLE "incident_notes" (
    "id" BIGSERIAL PRIMARY KEY,
    "incident_id" TEXT NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "text" TEXT NOT NULL,
    "author_ref" TEXT NOT NULL,
    "author_name" TEXT NOT NULL,
    -- clock_timestamp(), not now(): taken under the feed's lock, so notes' times follow their order.
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE INDEX "incident_notes_incident_id_id_idx" ON "incident_notes" ("incident_id", "id" DESC);
CREATE INDEX "incident_notes_change_number_idx" ON "incident_notes" ("change_number");

CREATE TRIGGER "incident_notes_change_lock" BEFORE INSERT OR UPDATE ON "incident_notes"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "incident_notes_change_stamp" BEFORE INSERT OR UPDATE ON "incident_notes"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
CREATE TRIGGER "incident_notes_changed_notify" AFTER INSERT OR UPDATE ON "incident_notes"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();

-- What a note says, who wrote it and when never change (audit_events_append_only refuses): a
-- merge only moves notes to the surviving incident. An incident that ceases to exist otherwise has
-- had its notes moved to where its calls went (lib/notes/move.ts); the cascade is a last resort.
CREATE TRIGGER "incident_notes_no_edit" BEFORE UPDATE OF "id", "text", "author_ref", "author_name", "created_at" ON "incident_notes"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
