-- The grouping rule, stated once (docs/incidents.md, "Grouping"): the open, not waiting incident of
-- the call's kind (simulated or not, same exercise) a call joins, automatically only when sure:
-- 1. the same callback number (`call_phone`, a full number) within `window_s`: the latest incident
--    holding a call from it, whatever its type;
-- 2. for an emergency of a place (`place`, lib/incidents/grouping.ts GROUPING_BY_TYPE), a call
--    located street level or better: the nearest incident of its type, itself street level or
--    better, whose centre is within `radius` metres and whose calls span a time within `window_s`;
-- 3. the same normalised address (incident_location_key) and type within `window_s`: the latest such
--    incident; when both the call and the incident are street level or better, within `radius` too.
-- An emergency of a person at another address is never joined: it may be marked as a possible
-- duplicate (possible_duplicates.sql). A coarse call is never joined on distance. Takes the change
-- feed's lock (lib/feed/lock.ts) so the lookup sees every committed incident.
-- lib/incidents/grouping.ts placementQuery applies it to a set of calls; tests/unit/sql-functions.test.ts
-- holds its constants equal to the TypeScript ones.
CREATE OR REPLACE FUNCTION "incident_for_call"(
  own TEXT, call_type TEXT, call_at TIMESTAMPTZ, lat DOUBLE PRECISION, lon DOUBLE PRECISION, call_location TEXT,
  call_simulation BOOLEAN, call_exercise TEXT, radius DOUBLE PRECISION, window_s DOUBLE PRECISION, call_precision TEXT,
  call_phone TEXT, place BOOLEAN
) RETURNS TEXT LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  win INTERVAL := make_interval(secs => window_s);
  call_key TEXT := incident_location_key(call_location);
  metres_per_degree CONSTANT DOUBLE PRECISION := 111320;
  cells INT[];
  found TEXT;
  street BOOLEAN := lat IS NOT NULL AND lon IS NOT NULL AND street_level(call_precision);
BEGIN
  PERFORM pg_advisory_xact_lock(7243001001);
  IF callback_number(call_phone) THEN
    found := (
    SELECT inc.id FROM calls c JOIN incidents inc ON inc.id = c.incident_id
    WHERE c.caller_phone = call_phone
      AND c.occurred_at BETWEEN call_at - win AND call_at + win
      AND inc.status IN ('active', 'dispatched', 'enroute')
      AND inc.simulation = call_simulation AND inc.exercise_id IS NOT DISTINCT FROM call_exercise
      AND inc.id IS DISTINCT FROM own
      AND NOT inc.waiting
    ORDER BY c.occurred_at DESC
    LIMIT 1);
    IF found IS NOT NULL THEN
      RETURN found;
    END IF;
  END IF;
  IF street AND place THEN
    cells := ARRAY(SELECT generate_series(floor((lat - radius / metres_per_degree) * 100)::int,
                                          floor((lat + radius / metres_per_degree) * 100)::int));
    found := (
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
      AND street_level(inc.location_precision)
      AND metres_per_degree * sqrt(power(inc.latitude - lat, 2)
        + power((inc.longitude - lon) * cos(radians(lat)), 2)) <= radius
    ORDER BY power(inc.latitude - lat, 2) + power((inc.longitude - lon) * cos(radians(lat)), 2), inc.last_call_at DESC
    LIMIT 1);
    IF found IS NOT NULL THEN
      RETURN found;
    END IF;
  END IF;
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
      AND (NOT (street AND street_level(inc.location_precision))
        OR metres_per_degree * sqrt(power(inc.latitude - lat, 2)
          + power((inc.longitude - lon) * cos(radians(lat)), 2)) <= radius)
    ORDER BY inc.last_call_at DESC
    LIMIT 1);
END;
$$;
