/**
 * GET /api/calls at 100,000 and 1,000,000 stored calls, in a database of its own (created here,
 * dropped at the end):
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/calls.ts
 *
 * (the URL names the server; TEST_DATABASE_URL is used when BENCH_DATABASE_URL is unset). Each
 * listing runs the whole read path (validation, page + count queries, mapping) with the cache
 * bypassed; EXPLAIN ANALYZE of the page and count queries is printed at 1,000,000 rows.
 */
import pg from "pg";
import { bumpCallsVersion } from "../lib/calls/cache";
import { parseListQuery } from "../lib/calls/filters";
import { listCalls } from "../lib/calls/list";
import { countSql, pageSql } from "../lib/calls/query";
import { withScratchDatabase } from "./scratch-database";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

const SCENARIOS: [string, string][] = [
  ["no filter (newest 50)", ""],
  ["two filters: severity + status", "severity=critical&status=active"],
  ["two filters: simulation + table_name", "simulation=false&table_name=calls"],
  ["emergency_type + start_date (last 24 h)", `emergency_type=gas_leak&start_date=${new Date(Date.now() - 86_400_000).toISOString()}`],
  ["location substring (an area, ~5%)", "location=malibu"],
  ["location substring (rare address)", "location=2999%20ocean"],
  ["deep offset 10,000", "offset=10000"],
  ["deep offset 90,000", "offset=90000"],
  ["deep offset 90,000 + status", "status=resolved&offset=90000"],
];

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

async function seed(client: pg.Client, first: number, last: number): Promise<void> {
  const started = performance.now();
  for (let from = first; from <= last; from += 100_000) {
    await client.query(seedSql(from, Math.min(from + 99_999, last)));
  }
  await client.query("VACUUM ANALYZE calls");
  await client.query("VACUUM ANALYZE call_counts");
  console.log(`seeded rows ${first}..${last} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function measure(query: string): Promise<{ p50: number; p99: number; runs: number; total: number }> {
  const parsed = parseListQuery(new URLSearchParams(query));
  const times: number[] = [];
  let total = 0;
  const deadline = performance.now() + 8_000;
  for (let run = 0; run < 200 && (run < 20 || performance.now() < deadline); run++) {
    await bumpCallsVersion(); // every run reads the database
    const started = performance.now();
    total = (await listCalls(parsed)).pagination.total;
    if (run >= 3) times.push(performance.now() - started); // the first runs warm the pool and caches
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), runs: times.length, total };
}

async function explain(client: pg.Client, label: string, query: string): Promise<void> {
  const { filters, limit, offset } = parseListQuery(new URLSearchParams(query));
  for (const [kind, sql] of [["page", pageSql(filters, limit, offset)], ["count", countSql(filters)]] as const) {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql.text}`, sql.values);
    console.log(`\n-- ${label}: ${kind}\n${rows.map((row) => `   ${row["QUERY PLAN"]}`).join("\n")}`);
  }
}

async function main(): Promise<void> {
  delete process.env.REDIS_URL;
  await withScratchDatabase(server, async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const results = new Map<string, Record<number, Awaited<ReturnType<typeof measure>>>>();
      for (const [first, last] of [[1, 100_000], [100_001, 1_000_000]]) {
        await seed(client, first, last);
        for (const [label, query] of SCENARIOS) {
          const result = await measure(query);
          results.set(label, { ...results.get(label), [last]: result });
          console.log(`${last} rows | ${label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, total ${result.total}`);
        }
      }

      console.log("\n| Listing | total at 100k / 1M | p50 100k | p99 100k | p50 1M | p99 1M | p50 1M / 100k |");
      console.log("|---|---|---|---|---|---|---|");
      for (const [label, byRows] of results) {
        const [small, large] = [byRows[100_000], byRows[1_000_000]];
        console.log(
          `| ${label} | ${small.total} / ${large.total} | ${small.p50.toFixed(2)} ms | ${small.p99.toFixed(2)} ms | ` +
            `${large.p50.toFixed(2)} ms | ${large.p99.toFixed(2)} ms | ${(large.p50 / small.p50).toFixed(2)}x |`,
        );
      }

      for (const [label, query] of SCENARIOS) await explain(client, label, query);
    } finally {
      await client.end().catch(() => {});
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
