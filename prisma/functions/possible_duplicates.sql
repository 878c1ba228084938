-- The open incidents a call that opened an incident of its own may duplicate (docs/incidents.md,
-- "Possible duplicates"): of its type and kind, not waiting, whose centre is within `radius` metres
-- of the call's point and whose calls span a time within `window_s` of it; the nearest three, with
-- the distance and the seconds between the call and the incident's nearest call time. The same
-- index probe as incident_for_call's nearest incident (incidents_open_type_cell_idx): its cost does
-- not grow with the calls stored. VOLATILE: it reads a snapshot taken after the feed's lock.
CREATE OR REPLACE FUNCTION "possible_duplicates"(
  own TEXT, call_type TEXT, call_at TIMESTAMPTZ, lat DOUBLE PRECISION, lon DOUBLE PRECISION,
  call_simulation BOOLEAN, call_exercise TEXT, radius DOUBLE PRECISION, window_s DOUBLE PRECISION
) RETURNS TABLE (id TEXT, distance_m DOUBLE PRECISION, seconds_apart INTEGER) LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  win INTERVAL := make_interval(secs => window_s);
  metres_per_degree CONSTANT DOUBLE PRECISION := 111320;
  cells INT[];
BEGIN
  IF lat IS NULL OR lon IS NULL THEN
    RETURN;
  END IF;
  cells := ARRAY(SELECT generate_series(floor((lat - radius / metres_per_degree) * 100)::int,
                                        floor((lat + radius / metres_per_degree) * 100)::int));
  RETURN QUERY
  SELECT inc.id,
    metres_per_degree * sqrt(power(inc.latitude - lat, 2) + power((inc.longitude - lon) * cos(radians(lat)), 2)),
    round(extract(epoch FROM greatest(inc.first_call_at - call_at, call_at - inc.last_call_at, interval '0')))::int
  FROM incidents inc
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
  ORDER BY power(inc.latitude - lat, 2) + power((inc.longitude - lon) * cos(radians(lat)), 2)
  LIMIT 3;
END;
$$;
