-- Refuses a change to what must never change once written: every row of the audit trail
-- (docs/security.md), and the content of an incident's notes (docs/incidents.md, "Notes").
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;
