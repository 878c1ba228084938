-- Trigger calls_incidents_update: calls that moved grow their new incident, and the incidents
-- they left, or whose calls changed what the aggregates read (a dispatcher's correction of type,
-- severity or location among them), are recomputed.
CREATE OR REPLACE FUNCTION "incidents_after_call_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incidents_add_calls(ARRAY(
    SELECT n.id FROM new_calls n JOIN old_calls o ON o.id = n.id WHERE n.incident_id IS DISTINCT FROM o.incident_id));
  PERFORM refresh_incidents(ARRAY(
    SELECT o.incident_id FROM new_calls n JOIN old_calls o ON o.id = n.id
    WHERE n.incident_id IS DISTINCT FROM o.incident_id
    UNION
    SELECT n.incident_id FROM new_calls n JOIN old_calls o ON o.id = n.id
    WHERE n.incident_id IS NOT DISTINCT FROM o.incident_id
      AND (n.severity IS DISTINCT FROM o.severity OR n.occurred_at IS DISTINCT FROM o.occurred_at
        OR n.latitude IS DISTINCT FROM o.latitude OR n.longitude IS DISTINCT FROM o.longitude
        OR n.location_precision IS DISTINCT FROM o.location_precision
        OR n.grouping_pending IS DISTINCT FROM o.grouping_pending
        OR n.emergency_type IS DISTINCT FROM o.emergency_type OR n.location IS DISTINCT FROM o.location)));
  RETURN NULL;
END;
$$;
