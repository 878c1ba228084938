-- Trigger calls_incidents_delete: incidents that lost calls are recomputed (or removed when empty).
CREATE OR REPLACE FUNCTION "incidents_after_call_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_incidents(ARRAY(SELECT DISTINCT incident_id FROM old_calls));
  RETURN NULL;
END;
$$;
