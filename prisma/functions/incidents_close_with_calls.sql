-- An incident closes when its last open call closes (docs/incidents.md, "Status"): a dispatcher
-- who resolves an incident's calls one by one, or a caller's only call, must not leave an open
-- incident behind in the queue and in the board's count of open incidents. It takes `resolved`
-- when any of its calls was resolved, else `failed`; the workflow allows either from every open
-- status. A trigger of its own beside calls_incidents_update, which keeps the aggregates.
CREATE OR REPLACE FUNCTION "incidents_close_with_calls"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM new_calls) THEN
    RETURN NULL;
  END IF;
  UPDATE incidents i SET
    status = CASE WHEN EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id AND c.status = 'resolved')
      THEN 'resolved' ELSE 'failed' END,
    updated_at = now()
  WHERE i.id IN (
      SELECT n.incident_id FROM new_calls n JOIN old_calls o ON o.id = n.id
      WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('resolved', 'failed'))
    AND i.status IN ('active', 'dispatched', 'enroute')
    AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id AND c.status IN ('active', 'dispatched', 'enroute'));
  RETURN NULL;
END;
$$;
