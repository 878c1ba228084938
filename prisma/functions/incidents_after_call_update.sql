-- Trigger calls_incidents_update: calls that moved grow their new incident, and the incidents
-- they left, or whose calls changed what the aggregates read (a dispatcher's correction of type,
-- severity or location among them), are recomputed. An announced incident its calls all left (a
-- merge, a correction that joined another incident) is recorded in incident_merges, as listed
-- before it goes, naming the incident its calls went to (incident.merged, docs/integrations.md).
CREATE OR REPLACE FUNCTION "incidents_after_call_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An insert's ON CONFLICT DO UPDATE fires this with no rows updated: the common webhook write.
  IF NOT EXISTS (SELECT FROM new_calls) THEN
    RETURN NULL;
  END IF;
  INSERT INTO incident_merges (merged_id, into_id, simulation, scenario, record)
  SELECT DISTINCT ON (i.id) i.id, n.incident_id, i.simulation, n.scenario, jsonb_build_object(
      'id', i.id, 'emergencyType', i.emergency_type, 'severity', i.severity, 'status', i.status,
      'location', i.location, 'latitude', i.latitude, 'longitude', i.longitude,
      'locationPrecision', i.location_precision, 'locationUncertaintyM', i.location_uncertainty_m,
      'locationMatched', i.location_matched,
      'firstCallAt', i.first_call_at, 'lastCallAt', i.last_call_at, 'callCount', i.call_count)
  FROM new_calls n JOIN old_calls o ON o.id = n.id JOIN incidents i ON i.id = o.incident_id
  WHERE n.incident_id IS DISTINCT FROM o.incident_id AND i.announced_change IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id)
  ORDER BY i.id, n.incident_id
  ON CONFLICT (merged_id) DO NOTHING;
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
