import type pg from "pg";

/** Incidents seeded in bulk for the benches (live-incidents.ts, alert-latency.ts): three calls each. */
export const CALLS_PER_INCIDENT = 3;

const TYPES = ["structure_fire", "medical_emergency", "flooding", "wind_damage", "gas_leak", "vehicle_accident", "trapped_person", "power_outage"];
const sqlArray = (values: string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(",")}]`;

/**
 * Incidents first..last (k); incident k's calls are rows 3k..3k+2, the first 6k seconds before now.
 * `openEvery`: every such incident is open (active, dispatched or enroute, its calls too), so open
 * incidents span all ages; the others are resolved with their calls.
 */
export async function seedIncidents(client: pg.Client, first: number, last: number, openEvery: number): Promise<void> {
  const started = performance.now();
  const open = (k: string) => (openEvery > 0 ? `${k} % ${openEvery} = 0` : "false");
  await client.query('ALTER TABLE calls DISABLE TRIGGER "calls_change_stamp"');
  try {
    for (let from = first; from <= last; from += 30_000) {
      const to = Math.min(from + 29_999, last);
      await client.query(`
        INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, first_call_at, last_call_at, call_count)
        SELECT 'inc_' || k, '', '', CASE WHEN ${open("k")} THEN (ARRAY['active','dispatched','enroute'])[1 + k % 3] ELSE 'resolved' END,
          '', '', now(), now(), 0
        FROM generate_series(${from}, ${to}) AS k`);
      await client.query(`
        INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
          transcript_length, created_at, updated_at, changed_at, emergency_type, location, latitude, longitude,
          location_source, severity, status, simulation, table_name, incident_id, caller_phone)
        SELECT lpad(to_hex(g), 12, '0'), 'conv_inc_' || g, b.at, 'agent_bench',
          'Caller ' || g || ' reported the emergency. Units dispatched.', true, 60, 10, b.at, b.at,
          CASE WHEN b.open THEN b.at ELSE b.at + interval '30 minutes' END,
          (${sqlArray(TYPES)})[1 + (h >> 3) % ${TYPES.length}], (100 + h % 2900)::text || ' Main St, Somewhere',
          25 + (h % 24000) / 1000.0 + (g % 3) * 0.0003, -124 + ((h >> 9) % 57000) / 1000.0, 'platform',
          CASE WHEN (h + g) % 10 < 2 THEN 'critical' WHEN (h + g) % 10 < 6 THEN 'high' ELSE 'moderate' END,
          CASE WHEN b.open THEN (ARRAY['active','dispatched','enroute'])[1 + k % 3] ELSE 'resolved' END,
          false, 'calls', 'inc_' || k, '+1555' || lpad(g::text, 7, '0')
        FROM generate_series(${from * CALLS_PER_INCIDENT}, ${to * CALLS_PER_INCIDENT + CALLS_PER_INCIDENT - 1}) AS g
        CROSS JOIN LATERAL (SELECT g / ${CALLS_PER_INCIDENT} AS k) AS i
        CROSS JOIN LATERAL (SELECT hashint4(k)::bigint & 2147483647 AS h) AS r
        CROSS JOIN LATERAL (
          SELECT date_trunc('second', now() - g * interval '2 seconds') AS at, ${open("k")} AS open
        ) AS b`);
      // Closed half an hour after their last call (the triggers stamped them now), as the calls are.
      await client.query(`
        UPDATE incidents SET updated_at = last_call_at + interval '30 minutes'
        WHERE status = 'resolved' AND id IN (SELECT 'inc_' || k FROM generate_series(${from}, ${to}) AS k)`);
    }
    await client.query("VACUUM ANALYZE calls");
    await client.query("VACUUM ANALYZE incidents");
    await client.query("VACUUM ANALYZE call_counts");
  } finally {
    await client.query('ALTER TABLE calls ENABLE TRIGGER "calls_change_stamp"');
  }
  console.log(`seeded incidents ${first}..${last} (${(last - first + 1) * CALLS_PER_INCIDENT} calls) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
