-- Grouping leaves the writing transaction (docs/incidents.md, "Grouping"): a writer stores a call
-- in an incident of its own with grouping_pending set, and the grouper (lib/incidents/grouper.ts)
-- moves waiting calls into their incidents a moment later, in batches, in change order. The
-- writer then takes no grouping lock and the hot incident of a surge is not updated per call.
-- AlterTable (constant defaults: no rewrite of stored calls, which stay as they are, not waiting)
ALTER TABLE "calls" ADD COLUMN     "grouping_pending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "grouped_at" TIMESTAMPTZ(3);

-- The grouper's queue: only waiting calls are in it.
-- CreateIndex
CREATE INDEX "calls_grouping_pending_idx" ON "calls"("change_number") WHERE "grouping_pending";

-- An incident's kind (simulated or not, and its exercise) is its first call's: grouping only joins
-- calls of the same kind, read from here instead of from every call of the incident. located_count
-- (its calls with coordinates) lets the centroid move by a weighted mean when calls are added.
-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "simulation" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "exercise_id" TEXT,
ADD COLUMN     "located_count" INTEGER NOT NULL DEFAULT 0;

UPDATE "incidents" i SET simulation = a.simulation, exercise_id = a.exercise_id, located_count = a.located_count
FROM (
  SELECT incident_id,
    (array_agg(simulation ORDER BY occurred_at, id))[1] AS simulation,
    (array_agg(exercise_id ORDER BY occurred_at, id))[1] AS exercise_id,
    count(*) FILTER (WHERE latitude IS NOT NULL AND longitude IS NOT NULL)::int AS located_count
  FROM calls GROUP BY incident_id
) a
WHERE i.id = a.incident_id;

-- Full recomputation, for incidents whose calls left or changed (merge, split, geocoding, edits);
-- as before, plus located_count, and the kind from the first call while a placeholder.
CREATE OR REPLACE FUNCTION "refresh_incidents"(ids TEXT[]) RETURNS void LANGUAGE sql AS $$
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
$$;

-- Calls added to incidents (inserted, or moved in): the incidents' aggregates grow by what the
-- added calls bring, reading only those calls, so a surge's incident of thousands of calls costs
-- the same per added call as a new one. A placeholder (call_count 0) takes its type, location,
-- kind, and a failed status from its first call.
CREATE FUNCTION "incidents_add_calls"(call_ids TEXT[]) RETURNS void LANGUAGE sql AS $$
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
$$;

CREATE OR REPLACE FUNCTION "incidents_after_call_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incidents_add_calls(ARRAY(SELECT id FROM new_calls));
  RETURN NULL;
END;
$$;

-- Calls that moved are added to their new incident; the incidents they left, and those whose calls
-- changed in place (severity, time, coordinates), are recomputed in full.
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
        OR n.latitude IS DISTINCT FROM o.latitude OR n.longitude IS DISTINCT FROM o.longitude)));
  RETURN NULL;
END;
$$;
