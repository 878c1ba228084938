-- Trigger calls_incidents_insert: the statement's new calls grow their incidents.
CREATE OR REPLACE FUNCTION "incidents_after_call_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incidents_add_calls(ARRAY(SELECT id FROM new_calls));
  RETURN NULL;
END;
$$;
