-- Recomputes incidents from their calls (after calls left them or changed), and removes an
-- incident left without calls. Its point is the centre of its most precise located calls, as
-- incidents_add_calls keeps it. An incident takes its first call's type, so it follows that call's
-- corrections (a dispatcher's, or the post-call analysis of a call reported live); one of one call
-- also takes that call's location text and matched address, a larger one keeps its first call's.
CREATE OR REPLACE FUNCTION "refresh_incidents"(ids TEXT[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE incidents i SET
    call_count = a.call_count,
    severity = a.severity,
    first_call_at = a.first_call_at,
    last_call_at = a.last_call_at,
    queued_at = a.queued_at,
    located_count = a.located_count,
    latitude = a.latitude,
    longitude = a.longitude,
    location_precision = a.location_precision,
    location_uncertainty_m = a.uncertainty_m,
    emergency_type = a.first_type,
    location = CASE WHEN (i.call_count = 0 AND i.location = '') OR a.call_count = 1 THEN a.first_location ELSE i.location END,
    location_key = CASE WHEN (i.call_count = 0 AND i.location = '') OR a.call_count = 1 THEN incident_location_key(a.first_location) ELSE i.location_key END,
    location_matched = CASE WHEN (i.call_count = 0 AND i.location = '') OR a.call_count = 1 THEN a.first_matched ELSE i.location_matched END,
    simulation = CASE WHEN i.call_count = 0 THEN a.first_simulation ELSE i.simulation END,
    exercise_id = CASE WHEN i.call_count = 0 THEN a.first_exercise_id ELSE i.exercise_id END,
    waiting = a.waiting,
    updated_at = now()
  FROM (
    SELECT s.*, (ARRAY['moderate', 'high', 'critical'])[s.severity_rank] AS severity,
      CASE WHEN s.located_count = 0 THEN NULL ELSE s.latitude_sum / s.located_count END AS latitude,
      CASE WHEN s.located_count = 0 THEN NULL ELSE s.longitude_sum / s.located_count END AS longitude
    FROM incident_calls_summary(ARRAY(SELECT id FROM calls WHERE incident_id = ANY(ids))) s
  ) a
  WHERE i.id = a.incident_id;
  DELETE FROM incidents i WHERE i.id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id);
END;
$$;
