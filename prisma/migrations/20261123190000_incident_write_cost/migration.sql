-- The incident functions that the calls' triggers run on every write, as PL/pgSQL instead of SQL:
-- PostgreSQL plans the statements of an SQL function again at every call (about 1.5 ms per
-- webhook, issue 17 in docs/performance.md), while PL/pgSQL keeps each statement's plan for the
-- life of the connection. Same statements, same results.
CREATE OR REPLACE FUNCTION "incidents_add_calls"(call_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE incidents i SET
    call_count = i.call_count + d.call_count,
    severity = (ARRAY['moderate', 'high', 'critical'])[greatest(d.severity_rank,
      CASE WHEN i.call_count = 0 THEN 1 WHEN i.severity = 'critical' THEN 3 WHEN i.severity = 'high' THEN 2 ELSE 1 END)],
    first_call_at = CASE WHEN i.call_count = 0 THEN d.first_call_at ELSE least(i.first_call_at, d.first_call_at) END,
    last_call_at = CASE WHEN i.call_count = 0 THEN d.last_call_at ELSE greatest(i.last_call_at, d.last_call_at) END,
    located_count = i.located_count + d.located_count,
    latitude = CASE WHEN i.located_count + d.located_count = 0 THEN NULL
      ELSE (coalesce(i.latitude, 0) * i.located_count + d.latitude_sum) / (i.located_count + d.located_count) END,
    longitude = CASE WHEN i.located_count + d.located_count = 0 THEN NULL
      ELSE (coalesce(i.longitude, 0) * i.located_count + d.longitude_sum) / (i.located_count + d.located_count) END,
    emergency_type = CASE WHEN i.call_count = 0 AND i.emergency_type = '' THEN d.first_type ELSE i.emergency_type END,
    location = CASE WHEN i.call_count = 0 AND i.location = '' THEN d.first_location ELSE i.location END,
    location_key = CASE WHEN i.call_count = 0 AND i.location = '' THEN incident_location_key(d.first_location) ELSE i.location_key END,
    simulation = CASE WHEN i.call_count = 0 THEN d.first_simulation ELSE i.simulation END,
    exercise_id = CASE WHEN i.call_count = 0 THEN d.first_exercise_id ELSE i.exercise_id END,
    status = CASE WHEN i.call_count = 0 AND d.first_status = 'failed' THEN 'failed' ELSE i.status END,
    updated_at = now()
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
      (array_agg(c.status ORDER BY c.occurred_at, c.id))[1] AS first_status
    FROM calls c WHERE c.id = ANY(call_ids) GROUP BY c.incident_id
  ) d
  WHERE i.id = d.incident_id;
END;
$$;

CREATE OR REPLACE FUNCTION "refresh_incidents"(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
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
      (array_agg(c.exercise_id ORDER BY c.occurred_at, c.id))[1] AS first_exercise_id
    FROM calls c WHERE c.incident_id = ANY(ids) GROUP BY c.incident_id
  ) a
  WHERE i.id = a.incident_id;
  DELETE FROM incidents i WHERE i.id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id);
END;
$$;

-- incident_for_call's coordinate lookup: the open incidents of a type in a band of latitude whose
-- last call is within the window, all read from this index. Without it the lookup's generic plan
-- combined two wider indexes and read thousands of entries per call during a surge (every
-- version of a busy incident, and every open incident in the band whatever its type).
CREATE INDEX "incidents_open_type_latitude_idx" ON "incidents" ("emergency_type", "latitude", "last_call_at")
  WHERE "status" IN ('active', 'dispatched', 'enroute');

-- PL/pgSQL plans a statement with parameters anew for each call while it judges a custom plan
-- cheaper than the generic one, which it did here at every call: the planning cost more than the
-- lookup (0.24 ms against 0.03 ms per call with the generic plan, measured in a surge of calls
-- about one fire). The generic plans read the same indexes.
ALTER FUNCTION "incident_for_call"(TEXT, TEXT, TIMESTAMPTZ, DOUBLE PRECISION, DOUBLE PRECISION, TEXT, BOOLEAN, TEXT,
  DOUBLE PRECISION, DOUBLE PRECISION) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION "incidents_add_calls"(TEXT[]) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION "refresh_incidents"(TEXT[]) SET plan_cache_mode = force_generic_plan;
