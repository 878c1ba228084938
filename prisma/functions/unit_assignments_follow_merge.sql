-- Trigger incident_merges_units (below): an incident that ceases to exist because its
-- calls all went to another (a merge, a correction) hands its units over with them, so a unit sent
-- to it keeps serving the emergency instead of losing its assignment with the removed incident.
-- Its assignments, open and cleared, and its units move to the incident named by the merge row
-- (a cleared one is the emergency's history: its intervals and EIDO resources), before
-- refresh_incidents removes the empty incident (the merge row is written first, in the same
-- trigger). This and lib/units/write.ts are the only writers of unit_assignments and units
-- (tests/unit/one-door.test.ts).
CREATE OR REPLACE FUNCTION "unit_assignments_follow_merge"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE unit_assignments SET incident_id = NEW.into_id WHERE incident_id = NEW.merged_id;
  UPDATE units SET incident_id = NEW.into_id WHERE incident_id = NEW.merged_id;
  RETURN NULL;
END;
$$;
-- The trigger is created here, with its function, not in migration units: a trigger needs its
-- function to exist, and migrations define no functions (lib/db/functions.ts).
CREATE OR REPLACE TRIGGER "incident_merges_units" AFTER INSERT ON "incident_merges"
  FOR EACH ROW EXECUTE FUNCTION "unit_assignments_follow_merge"();
