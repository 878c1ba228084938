-- A call stored without an incident starts in an incident of its own, named by the call's id
-- (trigger calls_own_incident, BEFORE INSERT); incidents_add_calls then creates it.
CREATE OR REPLACE FUNCTION "call_own_incident"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.incident_id IS NULL OR NEW.incident_id = '' THEN
    NEW.incident_id := NEW.id;
  END IF;
  RETURN NEW;
END;
$$;
