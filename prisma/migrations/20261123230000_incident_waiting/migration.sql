-- An incident whose calls all wait for the grouper (a simulated or exercise call, or one whose
-- geocoding failed, stored in an incident of its own) is marked `waiting`, and grouping's lookup
-- skips it through its index instead of asking, for every candidate of one call, whether that call
-- is still waiting (issue 17, docs/performance.md "Simulate"). Right after a simulation of 1,000
-- calls the open incidents of a scenario's areas are mostly such incidents, and the grouper's
-- lookups read and probed each: 1,000 placed in 322 ms on fresh rows, 3.0-3.6 s with 4,200 waiting,
-- while every batch of 200 held the change feed's lock that webhooks wait for.
--
-- `waiting` is "every call of the incident waits", derived like its other columns: set when calls
-- are added (incidents_add_calls), recomputed from its calls by refresh_incidents, which now also
-- runs for an incident one of whose calls stopped or started waiting in place (the grouper placed
-- it where it was: incidents_after_call_update). The functions are otherwise as in
-- incident_write_cost.
ALTER TABLE "incidents" ADD COLUMN "waiting" BOOLEAN NOT NULL DEFAULT false;

UPDATE "incidents" i SET "waiting" = true
WHERE i.id IN (SELECT c.incident_id FROM calls c WHERE c.grouping_pending)
  AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id AND NOT c.grouping_pending);

DROP INDEX "incidents_open_type_cell_idx";
CREATE INDEX "incidents_open_type_cell_idx" ON "incidents"
  ("emergency_type", (floor("latitude" * 100)::int), "last_call_at", "longitude")
  WHERE "status" IN ('active', 'dispatched', 'enroute') AND NOT "waiting";

CREATE OR REPLACE FUNCTION "incidents_add_calls"(call_ids TEXT[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO incidents AS i (id, emergency_type, severity, status, location, location_key, latitude, longitude,
                              first_call_at, last_call_at, call_count, located_count, simulation, exercise_id, waiting)
  SELECT d.incident_id, d.first_type, (ARRAY['moderate', 'high', 'critical'])[d.severity_rank],
    CASE WHEN d.first_status = 'failed' THEN 'failed' ELSE 'active' END,
    d.first_location, incident_location_key(d.first_location),
    CASE WHEN d.located_count = 0 THEN NULL ELSE d.latitude_sum / d.located_count END,
    CASE WHEN d.located_count = 0 THEN NULL ELSE d.longitude_sum / d.located_count END,
    d.first_call_at, d.last_call_at, d.call_count, d.located_count, d.first_simulation, d.first_exercise_id, d.waiting
  FROM (
      SELECT c.incident_id,
        count(*)::int AS call_count,
        max(CASE c.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END) AS severity_rank,
        min(c.occurred_at) AS first_call_at,
        max(c.occurred_at) AS last_call_at,
        count(*) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL)::int AS located_count,
        coalesce(sum(c.latitude) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL), 0) AS latitude_sum,
        coalesce(sum(c.longitude) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL), 0) AS longitude_sum,
        (array_agg(c.emergency_type ORDER BY c.occurred_at, c.id))[1] AS first_type,
        (array_agg(c.location ORDER BY c.occurred_at, c.id))[1] AS first_location,
        (array_agg(c.simulation ORDER BY c.occurred_at, c.id))[1] AS first_simulation,
        (array_agg(c.exercise_id ORDER BY c.occurred_at, c.id))[1] AS first_exercise_id,
        (array_agg(c.status ORDER BY c.occurred_at, c.id))[1] AS first_status,
        bool_and(c.grouping_pending) AS waiting
      FROM calls c WHERE c.id = ANY(call_ids) GROUP BY c.incident_id
  ) d
  ORDER BY d.incident_id
  ON CONFLICT (id) DO UPDATE SET
    call_count = i.call_count + EXCLUDED.call_count,
    severity = (ARRAY['moderate', 'high', 'critical'])[greatest(
      CASE EXCLUDED.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END,
      CASE WHEN i.call_count = 0 THEN 1 WHEN i.severity = 'critical' THEN 3 WHEN i.severity = 'high' THEN 2 ELSE 1 END)],
    first_call_at = CASE WHEN i.call_count = 0 THEN EXCLUDED.first_call_at ELSE least(i.first_call_at, EXCLUDED.first_call_at) END,
    last_call_at = CASE WHEN i.call_count = 0 THEN EXCLUDED.last_call_at ELSE greatest(i.last_call_at, EXCLUDED.last_call_at) END,
    located_count = i.located_count + EXCLUDED.located_count,
    latitude = CASE WHEN i.located_count + EXCLUDED.located_count = 0 THEN NULL
      ELSE (coalesce(i.latitude, 0) * i.located_count + coalesce(EXCLUDED.latitude, 0) * EXCLUDED.located_count)
        / (i.located_count + EXCLUDED.located_count) END,
    longitude = CASE WHEN i.located_count + EXCLUDED.located_count = 0 THEN NULL
      ELSE (coalesce(i.longitude, 0) * i.located_count + coalesce(EXCLUDED.longitude, 0) * EXCLUDED.located_count)
        / (i.located_count + EXCLUDED.located_count) END,
    emergency_type = CASE WHEN i.call_count = 0 AND i.emergency_type = '' THEN EXCLUDED.emergency_type ELSE i.emergency_type END,
    location = CASE WHEN i.call_count = 0 AND i.location = '' THEN EXCLUDED.location ELSE i.location END,
    location_key = CASE WHEN i.call_count = 0 AND i.location = '' THEN EXCLUDED.location_key ELSE i.location_key END,
    simulation = CASE WHEN i.call_count = 0 THEN EXCLUDED.simulation ELSE i.simulation END,
    exercise_id = CASE WHEN i.call_count = 0 THEN EXCLUDED.exercise_id ELSE i.exercise_id END,
    status = CASE WHEN i.call_count = 0 AND EXCLUDED.status = 'failed' THEN 'failed' ELSE i.status END,
    waiting = (i.call_count = 0 OR i.waiting) AND EXCLUDED.waiting,
    updated_at = now();
END;
$$;

CREATE OR REPLACE FUNCTION "refresh_incidents"(ids TEXT[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE incidents i SET
    call_count = a.call_count,
    severity = a.severity,
    first_call_at = a.first_call_at,
    last_call_at = a.last_call_at,
    located_count = a.located_count,
    latitude = a.latitude,
    longitude = a.longitude,
    emergency_type = CASE WHEN i.call_count = 0 AND i.emergency_type = '' THEN a.first_type ELSE i.emergency_type END,
    location = CASE WHEN i.call_count = 0 AND i.location = '' THEN a.first_location ELSE i.location END,
    location_key = CASE WHEN i.call_count = 0 AND i.location = '' THEN incident_location_key(a.first_location) ELSE i.location_key END,
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
      count(*) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL)::int AS located_count,
      avg(c.latitude) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL) AS latitude,
      avg(c.longitude) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL) AS longitude,
      (array_agg(c.emergency_type ORDER BY c.occurred_at, c.id))[1] AS first_type,
      (array_agg(c.location ORDER BY c.occurred_at, c.id))[1] AS first_location,
      (array_agg(c.simulation ORDER BY c.occurred_at, c.id))[1] AS first_simulation,
      (array_agg(c.exercise_id ORDER BY c.occurred_at, c.id))[1] AS first_exercise_id,
      bool_and(c.grouping_pending) AS waiting
    FROM calls c WHERE c.incident_id = ANY(ids) GROUP BY c.incident_id
  ) a
  WHERE i.id = a.incident_id;
  DELETE FROM incidents i WHERE i.id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id);
END;
$$;

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
        OR n.grouping_pending IS DISTINCT FROM o.grouping_pending)));
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION "incident_for_call"(
  own TEXT, call_type TEXT, call_at TIMESTAMPTZ, lat DOUBLE PRECISION, lon DOUBLE PRECISION, call_location TEXT,
  call_simulation BOOLEAN, call_exercise TEXT, radius DOUBLE PRECISION, window_s DOUBLE PRECISION
) RETURNS TEXT LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  win INTERVAL := make_interval(secs => window_s);
  call_key TEXT := incident_location_key(call_location);
  metres_per_degree CONSTANT DOUBLE PRECISION := 111320;
  cells INT[];
BEGIN
  PERFORM pg_advisory_xact_lock(7243001001);
  IF lat IS NULL OR lon IS NULL THEN
    IF call_key = '' THEN
      RETURN NULL;
    END IF;
    RETURN (
      SELECT inc.id FROM incidents inc
      WHERE inc.location_key = call_key AND inc.emergency_type = call_type
        AND inc.status IN ('active', 'dispatched', 'enroute')
        AND inc.last_call_at >= call_at - win AND inc.first_call_at <= call_at + win
        AND inc.simulation = call_simulation AND inc.exercise_id IS NOT DISTINCT FROM call_exercise
        AND inc.id IS DISTINCT FROM own
        AND NOT inc.waiting
      ORDER BY inc.last_call_at DESC
      LIMIT 1);
  END IF;
  cells := ARRAY(SELECT generate_series(floor((lat - radius / metres_per_degree) * 100)::int,
                                        floor((lat + radius / metres_per_degree) * 100)::int));
  RETURN (
    SELECT inc.id FROM incidents inc
    WHERE inc.emergency_type = call_type
      AND inc.status IN ('active', 'dispatched', 'enroute')
      AND floor(inc.latitude * 100)::int = ANY(cells)
      AND inc.latitude BETWEEN lat - radius / metres_per_degree AND lat + radius / metres_per_degree
      AND inc.longitude BETWEEN lon - radius / (metres_per_degree * cos(radians(lat)))
                            AND lon + radius / (metres_per_degree * cos(radians(lat)))
      AND inc.last_call_at >= call_at - win AND inc.first_call_at <= call_at + win
      AND inc.simulation = call_simulation AND inc.exercise_id IS NOT DISTINCT FROM call_exercise
      AND inc.id IS DISTINCT FROM own
      AND NOT inc.waiting
      AND metres_per_degree * sqrt(power(inc.latitude - lat, 2)
        + power((inc.longitude - lon) * cos(radians(lat)), 2)) <= radius
    ORDER BY power(inc.latitude - lat, 2) + power((inc.longitude - lon) * cos(radians(lat)), 2), inc.last_call_at DESC
    LIMIT 1);
END;
$$;
