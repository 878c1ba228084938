-- Numbers every written row of the change feed (calls; incident notes: migration incident_notes;
-- incidents and incident merges: migration incident_events; units, their state changes and
-- assignments: migration units), under the lock its statement took.
-- On a call it also stamps the change at which the call was first written not waiting for the
-- grouper (announced_change) and the change of its latest status move (status_change); on an
-- incident the change at which it was first written not waiting (announced_change); on a note the
-- change at which it was kept. Outbound events derive from these stamps
-- (lib/subscriptions/events.ts), whatever later changes fold into the row.
CREATE OR REPLACE FUNCTION "call_change_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."change_number" := nextval('calls_change_number_seq');
  NEW."changed_at" := now();
  IF TG_TABLE_NAME = 'calls' THEN
    IF NEW."announced_change" IS NULL AND NOT NEW."grouping_pending" THEN
      NEW."announced_change" := NEW."change_number";
    END IF;
    IF TG_OP = 'INSERT' OR NEW."status" IS DISTINCT FROM OLD."status" THEN
      NEW."status_change" := NEW."change_number";
    END IF;
  ELSIF TG_TABLE_NAME = 'incidents' THEN
    IF NEW."announced_change" IS NULL AND NOT NEW."waiting" THEN
      NEW."announced_change" := NEW."change_number";
    END IF;
  ELSIF TG_TABLE_NAME = 'incident_notes' THEN
    IF NEW."announced_change" IS NULL THEN
      NEW."announced_change" := NEW."change_number";
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
