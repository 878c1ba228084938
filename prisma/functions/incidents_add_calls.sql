-- Grows incidents by calls just added to them (inserted, or moved in), incrementally: counts,
-- highest severity, first and last call, the queue's time (call_queue_time), and its point: the centre
-- of its most precise located calls (located_count of them), their precision and radius (the largest
-- uncertainty among them). Added calls as precise as its point move it (a weighted mean), more precise
-- ones replace it, coarser ones never move it (docs/incidents.md, "Model"). Creates an incident a
-- call names that does not exist yet (a call in its own incident), and a placeholder's first call fills it in.
CREATE OR REPLACE FUNCTION "incidents_add_calls"(call_ids TEXT[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO incidents AS i (id, emergency_type, severity, status, location, location_key, latitude, longitude,
                              location_precision, location_uncertainty_m, location_matched, first_call_at, last_call_at, queued_at, call_count, located_count, simulation, exercise_id, waiting)
  SELECT d.incident_id, d.first_type, (ARRAY['moderate', 'high', 'critical'])[d.severity_rank],
    CASE WHEN d.first_status = 'failed' THEN 'failed' ELSE 'active' END,
    d.first_location, incident_location_key(d.first_location),
    CASE WHEN d.located_count = 0 THEN NULL ELSE d.latitude_sum / d.located_count END,
    CASE WHEN d.located_count = 0 THEN NULL ELSE d.longitude_sum / d.located_count END,
    d.location_precision, d.uncertainty_m, d.first_matched, d.first_call_at, d.last_call_at, d.queued_at, d.call_count, d.located_count, d.first_simulation, d.first_exercise_id, d.waiting
  FROM incident_calls_summary(call_ids) d
  ORDER BY d.incident_id
  ON CONFLICT (id) DO UPDATE SET
    call_count = i.call_count + EXCLUDED.call_count,
    severity = (ARRAY['moderate', 'high', 'critical'])[greatest(
      CASE EXCLUDED.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END,
      CASE WHEN i.call_count = 0 THEN 1 WHEN i.severity = 'critical' THEN 3 WHEN i.severity = 'high' THEN 2 ELSE 1 END)],
    first_call_at = CASE WHEN i.call_count = 0 THEN EXCLUDED.first_call_at ELSE least(i.first_call_at, EXCLUDED.first_call_at) END,
    last_call_at = CASE WHEN i.call_count = 0 THEN EXCLUDED.last_call_at ELSE greatest(i.last_call_at, EXCLUDED.last_call_at) END,
    queued_at = CASE WHEN i.call_count = 0 THEN EXCLUDED.queued_at ELSE least(i.queued_at, EXCLUDED.queued_at) END,
    -- The added calls' point against the incident's: as precise, a weighted mean; more precise (or
    -- the incident had none), theirs; coarser (or none), the incident's stays.
    (located_count, latitude, longitude, location_precision, location_uncertainty_m) = (
      SELECT CASE p.how WHEN 'same' THEN i.located_count + EXCLUDED.located_count WHEN 'theirs' THEN EXCLUDED.located_count ELSE i.located_count END,
        CASE p.how WHEN 'same' THEN (i.latitude * i.located_count + EXCLUDED.latitude * EXCLUDED.located_count) / (i.located_count + EXCLUDED.located_count)
          WHEN 'theirs' THEN EXCLUDED.latitude ELSE i.latitude END,
        CASE p.how WHEN 'same' THEN (i.longitude * i.located_count + EXCLUDED.longitude * EXCLUDED.located_count) / (i.located_count + EXCLUDED.located_count)
          WHEN 'theirs' THEN EXCLUDED.longitude ELSE i.longitude END,
        CASE p.how WHEN 'theirs' THEN EXCLUDED.location_precision ELSE i.location_precision END,
        CASE p.how WHEN 'same' THEN greatest(i.location_uncertainty_m, EXCLUDED.location_uncertainty_m)
          WHEN 'theirs' THEN EXCLUDED.location_uncertainty_m ELSE i.location_uncertainty_m END
      FROM (SELECT CASE
        WHEN EXCLUDED.located_count = 0 THEN 'ours'
        WHEN i.call_count = 0 OR i.located_count = 0 THEN 'theirs'
        WHEN i.location_precision IS NOT DISTINCT FROM EXCLUDED.location_precision THEN 'same'
        WHEN best_location_precision(ARRAY[i.location_precision, EXCLUDED.location_precision]) IS NOT DISTINCT FROM EXCLUDED.location_precision THEN 'theirs'
        ELSE 'ours' END AS how) p),
    emergency_type = CASE WHEN i.call_count = 0 AND i.emergency_type = '' THEN EXCLUDED.emergency_type ELSE i.emergency_type END,
    location = CASE WHEN i.call_count = 0 AND i.location = '' THEN EXCLUDED.location ELSE i.location END,
    location_key = CASE WHEN i.call_count = 0 AND i.location = '' THEN EXCLUDED.location_key ELSE i.location_key END,
    location_matched = CASE WHEN i.call_count = 0 AND i.location = '' THEN EXCLUDED.location_matched ELSE i.location_matched END,
    simulation = CASE WHEN i.call_count = 0 THEN EXCLUDED.simulation ELSE i.simulation END,
    exercise_id = CASE WHEN i.call_count = 0 THEN EXCLUDED.exercise_id ELSE i.exercise_id END,
    status = CASE WHEN i.call_count = 0 AND EXCLUDED.status = 'failed' THEN 'failed' ELSE i.status END,
    waiting = (i.call_count = 0 OR i.waiting) AND EXCLUDED.waiting,
    updated_at = now();
END;
$$;
