-- Grouping at write time (docs/incidents.md, "Grouping"): a writer of one call (the webhook)
-- chooses the call's incident in the statement that stores the call or its coordinates, so the
-- call is written once, not stored and then moved by the grouper. Writers of many calls at once
-- (simulation, exercises) and calls whose geocoding failed still go through the grouper.

-- An incident of its own for a call stored without one: the call's own id, set in a row trigger
-- without side effects. The column default used to insert the incident, and INSERT ... ON
-- CONFLICT evaluates defaults for the proposed row even when it becomes an update, so every
-- redelivery left an empty open incident behind. The incident row is now inserted by the
-- statement trigger for the rows actually inserted; the foreign key is checked at commit, after
-- that trigger has run.
ALTER TABLE "calls" ALTER COLUMN "incident_id" SET DEFAULT '';
ALTER TABLE "calls" ALTER CONSTRAINT "calls_incident_id_fkey" DEFERRABLE INITIALLY DEFERRED;
DROP FUNCTION "call_own_incident"();

-- Empty placeholders that redeliveries left behind: no call, so nothing points at them.
DELETE FROM "incidents" i WHERE i."call_count" = 0 AND NOT EXISTS (SELECT 1 FROM "calls" c WHERE c."incident_id" = i."id");

CREATE FUNCTION "call_own_incident"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.incident_id IS NULL OR NEW.incident_id = '' THEN
    NEW.incident_id := NEW.id;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "calls_own_incident" BEFORE INSERT ON "calls"
  FOR EACH ROW EXECUTE FUNCTION "call_own_incident"();

-- The placeholders (call_count 0) of calls inserted in their own incident, then the aggregates
-- of every incident that gained calls (incidents_add_calls fills a placeholder from its call).
CREATE OR REPLACE FUNCTION "incidents_after_call_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, first_call_at, last_call_at, call_count)
  SELECT n.id, '', '', 'active', '', '', now(), now(), 0 FROM new_calls n WHERE n.incident_id = n.id;
  PERFORM incidents_add_calls(ARRAY(SELECT id FROM new_calls));
  RETURN NULL;
END;
$$;

-- The open incident a call joins (the rule of lib/incidents/grouping.ts): of its emergency type
-- and kind, its calls within `window_s` of the call's time, the nearest whose centroid is within
-- `radius` metres, or without coordinates the one with the same normalised location text; not
-- `own` (the call's current incident), and not an incident holding only a call still waiting for
-- the grouper (that call joins others, never the reverse). NULL: none, the call keeps its own.
-- It takes the change feed's lock, which every writer of calls takes first and holds to commit,
-- and being VOLATILE its query reads a snapshot taken after the lock: it sees every incident that
-- earlier writers committed, so concurrent calls about one event cannot open two incidents.
-- Two queries rather than one with a CASE, so that each can use an index: open incidents in a
-- band of latitude (incidents_status_latitude_longitude_severity_call_count_id_idx: a few rows,
-- however many incidents the last hour opened elsewhere), or of the same location text.
CREATE FUNCTION "incident_for_call"(
  own TEXT, call_type TEXT, call_at TIMESTAMPTZ, lat DOUBLE PRECISION, lon DOUBLE PRECISION, call_location TEXT,
  call_simulation BOOLEAN, call_exercise TEXT, radius DOUBLE PRECISION, window_s DOUBLE PRECISION
) RETURNS TEXT LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  win INTERVAL := make_interval(secs => window_s);
  call_key TEXT := incident_location_key(call_location);
  metres_per_degree CONSTANT DOUBLE PRECISION := 111320;
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
        AND (inc.call_count > 1 OR NOT EXISTS (
          SELECT 1 FROM calls w WHERE w.incident_id = inc.id AND w.grouping_pending))
      ORDER BY inc.last_call_at DESC
      LIMIT 1);
  END IF;
  RETURN (
    SELECT inc.id FROM incidents inc
    WHERE inc.emergency_type = call_type
      AND inc.status IN ('active', 'dispatched', 'enroute')
      AND inc.latitude BETWEEN lat - radius / metres_per_degree AND lat + radius / metres_per_degree
      AND inc.last_call_at >= call_at - win AND inc.first_call_at <= call_at + win
      AND inc.simulation = call_simulation AND inc.exercise_id IS NOT DISTINCT FROM call_exercise
      AND inc.id IS DISTINCT FROM own
      AND (inc.call_count > 1 OR NOT EXISTS (
        SELECT 1 FROM calls w WHERE w.incident_id = inc.id AND w.grouping_pending))
      AND metres_per_degree * sqrt(power(inc.latitude - lat, 2)
        + power((inc.longitude - lon) * cos(radians(lat)), 2)) <= radius
    ORDER BY power(inc.latitude - lat, 2) + power((inc.longitude - lon) * cos(radians(lat)), 2), inc.last_call_at DESC
    LIMIT 1);
END;
$$;
