-- Acknowledgements of incidents' alerts (lib/alerts, docs/dashboard.md "Alerts"): a dispatcher's
-- "seen" of an incident's new critical calls or of its reminder, append-only. An acknowledgement
-- is part of the change feed (the same lock, numbering and notification as a note), so every
-- dashboard's stream carries it and the feed's head moves with it.
CREATE TABLE "incident_acknowledgements" (
    "id" BIGSERIAL PRIMARY KEY,
    "incident_id" TEXT NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "actor_ref" TEXT NOT NULL,
    "actor_name" TEXT NOT NULL,
    -- clock_timestamp(): taken under the feed's lock, so acknowledgements' times follow their order.
    "acknowledged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    "change_number" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE INDEX "incident_acknowledgements_incident_id_acknowledged_at_idx" ON "incident_acknowledgements" ("incident_id", "acknowledged_at" DESC);
CREATE INDEX "incident_acknowledgements_change_number_idx" ON "incident_acknowledgements" ("change_number");

CREATE TRIGGER "incident_acknowledgements_change_lock" BEFORE INSERT ON "incident_acknowledgements"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();
CREATE TRIGGER "incident_acknowledgements_change_stamp" BEFORE INSERT ON "incident_acknowledgements"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();
CREATE TRIGGER "incident_acknowledgements_changed_notify" AFTER INSERT ON "incident_acknowledgements"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();
CREATE TRIGGER "incident_acknowledgements_no_edit" BEFORE UPDATE ON "incident_acknowledgements"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
