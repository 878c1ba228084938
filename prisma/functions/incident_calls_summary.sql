-- What an incident is made of, over a set of its calls, one row per incident: counts, highest
-- severity (1 moderate, 2 high, 3 critical), first and last call, the queue's time
-- (call_queue_time), the first call's type, location, matched address, kind, exercise and status,
-- and its point: the sums of the coordinates of its most precise located calls among the set
-- (located_count of them), that precision, and the largest uncertainty among them (docs/incidents.md,
-- "Model"). incidents_add_calls reads it over calls just added to incidents, refresh_incidents over
-- all of an incident's calls. STABLE, one SELECT: the planner inlines it into the caller's query.
CREATE OR REPLACE FUNCTION "incident_calls_summary"(call_ids TEXT[])
RETURNS TABLE (
  incident_id TEXT, call_count INT, severity_rank INT, first_call_at TIMESTAMPTZ, last_call_at TIMESTAMPTZ,
  queued_at TIMESTAMPTZ, located_count INT, latitude_sum DOUBLE PRECISION, longitude_sum DOUBLE PRECISION,
  uncertainty_m DOUBLE PRECISION, location_precision TEXT, first_type TEXT, first_location TEXT,
  first_matched TEXT, first_simulation BOOLEAN, first_exercise_id TEXT, first_status TEXT, waiting BOOLEAN
) LANGUAGE sql STABLE AS $$
  SELECT c.incident_id,
    count(*)::int,
    max(CASE c.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END),
    min(c.occurred_at),
    max(c.occurred_at),
    min(call_queue_time(c.occurred_at, c.created_at)),
    count(*) FILTER (WHERE c.centre)::int,
    coalesce(sum(c.latitude) FILTER (WHERE c.centre), 0),
    coalesce(sum(c.longitude) FILTER (WHERE c.centre), 0),
    max(c.location_uncertainty_m) FILTER (WHERE c.centre),
    min(c.best),
    (array_agg(c.emergency_type ORDER BY c.occurred_at, c.id))[1],
    (array_agg(c.location ORDER BY c.occurred_at, c.id))[1],
    (array_agg(c.location_matched ORDER BY c.occurred_at, c.id))[1],
    (array_agg(c.simulation ORDER BY c.occurred_at, c.id))[1],
    (array_agg(c.exercise_id ORDER BY c.occurred_at, c.id))[1],
    (array_agg(c.status ORDER BY c.occurred_at, c.id))[1],
    bool_and(c.grouping_pending)
  FROM (
    SELECT l.*, l.located AND l.location_precision IS NOT DISTINCT FROM l.best AS centre
    FROM (
      SELECT c.*, c.latitude IS NOT NULL AND c.longitude IS NOT NULL AS located,
        best_location_precision(array_agg(c.location_precision) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL)
          OVER (PARTITION BY c.incident_id)) AS best
      FROM calls c WHERE c.id = ANY(call_ids)
    ) l
  ) c GROUP BY c.incident_id
$$;
