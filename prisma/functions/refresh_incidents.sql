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
    SELECT c.incident_id,
      count(*)::int AS call_count,
      (ARRAY['moderate', 'high', 'critical'])[max(CASE c.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END)] AS severity,
      min(c.occurred_at) AS first_call_at,
      max(c.occurred_at) AS last_call_at,
      min(call_queue_time(c.occurred_at, c.created_at)) AS queued_at,
      count(*) FILTER (WHERE c.centre)::int AS located_count,
      avg(c.latitude) FILTER (WHERE c.centre) AS latitude,
      avg(c.longitude) FILTER (WHERE c.centre) AS longitude,
      max(c.location_uncertainty_m) FILTER (WHERE c.centre) AS uncertainty_m,
      min(c.best) AS location_precision,
      (array_agg(c.emergency_type ORDER BY c.occurred_at, c.id))[1] AS first_type,
      (array_agg(c.location ORDER BY c.occurred_at, c.id))[1] AS first_location,
      (array_agg(c.location_matched ORDER BY c.occurred_at, c.id))[1] AS first_matched,
      (array_agg(c.simulation ORDER BY c.occurred_at, c.id))[1] AS first_simulation,
      (array_agg(c.exercise_id ORDER BY c.occurred_at, c.id))[1] AS first_exercise_id,
      bool_and(c.grouping_pending) AS waiting
    FROM (
      SELECT l.*, l.located AND l.location_precision IS NOT DISTINCT FROM l.best AS centre
      FROM (
        SELECT c.*, c.latitude IS NOT NULL AND c.longitude IS NOT NULL AS located,
          best_location_precision(array_agg(c.location_precision) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL)
            OVER (PARTITION BY c.incident_id)) AS best
        FROM calls c WHERE c.incident_id = ANY(ids)
      ) l
    ) c GROUP BY c.incident_id
  ) a
  WHERE i.id = a.incident_id;
  DELETE FROM incidents i WHERE i.id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id);
END;
$$;
