-- The grouping rule, stated once (docs/incidents.md, "Grouping"): the open incident a call joins.
-- A call located street level or better joins the nearest open, not waiting incident of its type
-- and kind (simulated or not, same exercise), itself street level or better, whose centroid is
-- within `radius` metres and whose calls span a time within `window_s` of it; failing that, the
-- latest such incident, coarser than street level, with the same normalised address
-- (incident_location_key). A coarser call (or one of unknown precision, or without coordinates)
-- joins only the latest such incident with the same normalised address, whatever its precision:
-- never on distance alone. Takes the
-- change feed's lock (lib/calls/write/lock.ts) so the lookup sees every committed incident.
-- lib/incidents/grouping.ts placementQuery applies it to a set of calls; tests/unit/sql-functions.test.ts
-- holds its constants equal to the TypeScript ones.
CREATE OR REPLACE FUNCTION "incident_for_call"(
  own TEXT, call_type TEXT, call_at TIMESTAMPTZ, lat DOUBLE PRECISION, lon DOUBLE PRECISION, call_location TEXT,
  call_simulation BOOLEAN, call_exercise TEXT, radius DOUBLE PRECISION, window_s DOUBLE PRECISION, call_precision TEXT
) RETURNS TEXT LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  win INTERVAL := make_interval(secs => window_s);
  call_key TEXT := incident_location_key(call_location);
  metres_per_degree CONSTANT DOUBLE PRECISION := 111320;
  cells INT[];
  nearest TEXT;
  street BOOLEAN := lat IS NOT NULL AND lon IS NOT NULL AND street_level(call_precision);
BEGIN
  PERFORM pg_advisory_xact_lock(7243001001);
  IF street THEN
    cells := ARRAY(SELECT generate_series(floor((lat - radius / metres_per_degree) * 100)::int,
                                          floor((lat + radius / metres_per_degree) * 100)::int));
    nearest := (
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
    IF nearest IS NOT NULL THEN
      RETURN nearest;
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
      AND NOT (street AND street_level(inc.location_precision))
    ORDER BY inc.last_call_at DESC
    LIMIT 1);
END;
$$;
