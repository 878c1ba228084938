import type pg from "pg";

/**
 * Bulk-loads synthetic calls with INSERT … SELECT generate_series, 100,000 rows a statement,
 * straight into a scratch database (bench/scratch-database.ts); shared by the benches that
 * measure at 100,000 or 1,000,000 stored calls.
 */

const AREAS = [
  "Pacific Palisades", "Malibu", "Topanga", "Brentwood", "Santa Monica Mountains", "Downtown Nashville",
  "East Nashville", "Germantown", "The Gulch", "Music Row", "Marina District", "Mission District",
  "Financial District", "Miami Beach", "Fort Lauderdale", "West Palm Beach", "Hollywood", "Venice",
  "Burbank", "Pasadena",
];
const STREETS = ["Sunset Blvd", "Main St", "Ocean Ave", "Oak St", "Elm Dr", "Broadway", "Topanga Canyon Blvd", "Market St"];
const TYPES = [
  "structure_fire", "evacuation_assistance", "trapped_person", "medical_emergency", "shelter_information",
  "flooding", "wind_damage", "power_outage", "evacuation_needed", "building_collapse", "gas_leak",
  "debris_injury", "building_damage", "vehicle_accident", "power_lines_down", "shelter_needed", "medical_injuries",
];
const sqlArray = (values: string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(",")}]`;

/**
 * Rows first..last, newest first: row g happened g * 2.5 s before now (whole seconds, so some
 * share a second). Distributions: 60% simulated, most calls long resolved, the rest spread.
 */
function seedSql(first: number, last: number): string {
  return `
    INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
      transcript_length, created_at, emergency_type, location, latitude, longitude, severity, status,
      simulation, scenario, scenario_name, table_name, call_id, area, caller_phone, description)
    SELECT
      lpad(to_hex(g), 12, '0'), c.conv, c.at, CASE WHEN c.sim THEN 'simulator' ELSE 'agent_bench' END,
      'Caller reported an emergency at ' || c.loc || '. Emergency services have been dispatched to the scene.',
      true, 45 + h % 555, CASE WHEN c.sim THEN 0 ELSE 1 + h % 40 END, c.at,
      (${sqlArray(TYPES)})[1 + (h >> 3) % ${TYPES.length}], c.loc,
      34 + (h % 1000) / 10000.0, -118 - (h % 997) / 10000.0,
      CASE WHEN h % 10 < 2 THEN 'critical' WHEN h % 10 < 6 THEN 'high' ELSE 'moderate' END,
      CASE WHEN g < 2000 THEN (ARRAY['active','dispatched','enroute'])[1 + h % 3]
           WHEN (h >> 5) % 20 = 0 THEN 'active' WHEN (h >> 5) % 20 = 1 THEN 'failed' ELSE 'resolved' END,
      c.sim, CASE WHEN c.sim THEN 'la_wildfire' END, CASE WHEN c.sim THEN 'Los Angeles Wildfire' END,
      CASE WHEN c.sim THEN (ARRAY['wildfire-simulation-calls','drill-a','drill-b','drill-c'])[1 + (h >> 7) % 4] ELSE 'calls' END,
      CASE WHEN c.sim THEN c.conv END, CASE WHEN c.sim THEN c.area END,
      CASE WHEN c.sim THEN '+1310' || (2000000 + h % 7999999)::text END,
      CASE WHEN c.sim THEN 'Smoke and flames visible' END
    FROM generate_series(${first}, ${last}) AS g
    CROSS JOIN LATERAL (SELECT hashint4(g)::bigint & 2147483647 AS h) AS r
    CROSS JOIN LATERAL (
      SELECT
        (${sqlArray(AREAS)})[1 + (h >> 11) % ${AREAS.length}] AS area,
        h % 10 < 6 AS sim,
        date_trunc('second', now() - g * interval '2.5 seconds') AS at
    ) AS b
    CROSS JOIN LATERAL (
      SELECT
        (100 + h % 2900)::text || ' ' || (${sqlArray(STREETS)})[1 + (h >> 17) % ${STREETS.length}] || ', ' || b.area AS loc,
        CASE WHEN b.sim THEN 'LA_WILDFIRE-' || extract(epoch FROM b.at)::bigint || '-' || g ELSE 'conv_bench_' || g END AS conv,
        b.sim, b.at, b.area
    ) AS c`;
}

export async function seed(client: pg.Client, first: number, last: number): Promise<void> {
  const started = performance.now();
  for (let from = first; from <= last; from += 100_000) {
    await client.query(seedSql(from, Math.min(from + 99_999, last)));
  }
  await client.query("VACUUM ANALYZE calls");
  await client.query("VACUUM ANALYZE call_counts");
  await client.query("VACUUM ANALYZE incidents");
  console.log(`seeded rows ${first}..${last} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

