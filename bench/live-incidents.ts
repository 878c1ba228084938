/**
 * The dashboard's incident picture at 100,000 and 1,000,000 stored calls, the open incidents the
 * same at both sizes (about 16,700 open incidents of 3 calls each, spread over the continental US):
 * does a read cost more when more calls are stored?
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/live-incidents.ts
 *
 * BENCH_SIZES=100000 (default 100000,1000000) limits the sizes. In-process, on a scratch database
 * (created here, dropped at the end): the domain functions behind the endpoints, 30 runs each after
 * 3 warm-up runs, p50 and p95 in ms:
 *   - GET /api/live/incidents: the first window of 100, and a page of 100 twenty pages deep
 *     (by its keyset cursor), shown and with exercises=hide;
 *   - the board's open-incident count (and the whole board, for scale);
 *   - GET /api/live/incident-map at country zoom (every open incident in one view) and city zoom.
 * It checks the queue's head and the count against SQL, and prints the country map's plan.
 * Rows are loaded with INSERT ... SELECT generate_series: incidents first (placeholders), then their
 * calls (three per incident, 2 s apart, a few metres apart); the incident triggers fill in counts,
 * severity, times and centroids as for any writer. The first load holds every open incident; later
 * loads add closed ones only.
 */
import { loadavg } from "node:os";
import type pg from "pg";
import { getDb } from "../lib/db/client";
import { readBoardFrom } from "../lib/board/counts";
import { incidentMapCellsSql, readIncidentMapFrom } from "../lib/board/incident-map";
import { countOpenIncidents, readIncidentQueueFrom } from "../lib/board/incident-queue";
import type { MapRequest } from "../lib/board/call-map";
import { withScratchClient } from "./scratch-database";
import { CALLS_PER_INCIDENT, seedIncidents } from "./seed-incidents";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const SIZES = (process.env.BENCH_SIZES ?? "100000,1000000").split(",").map(Number);
const OPEN_CALLS = 50_000;

const COUNTRY: MapRequest = { west: -135, south: 17, east: -60, north: 55, zoom: 4, closedHours: 6, exercises: "show" };
const CITY: MapRequest = { west: -100.7, south: 33.8, east: -100.1, north: 34.2, zoom: 11, closedHours: 6, exercises: "show" };

async function timed<T>(work: () => Promise<T>, runs = 30): Promise<{ p50_ms: number; p95_ms: number; result: T }> {
  const times: number[] = [];
  let result!: T;
  for (let run = 0; run < runs + 3; run++) {
    const started = performance.now();
    result = await work();
    if (run >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return { p50_ms: round(percentile(times, 0.5)), p95_ms: round(percentile(times, 0.95)), result };
}

async function measure(client: pg.Client, size: number) {
  const db = await getDb();
  // The truth: open incidents, and the queue's head (most severe, then earliest queue time).
  const { rows: [truth] } = await client.query<{ open: number; head: string }>(`
    SELECT (SELECT count(*)::int FROM incidents WHERE status IN ('active','dispatched','enroute')) AS open,
      (SELECT id FROM incidents WHERE status IN ('active','dispatched','enroute')
        ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 ELSE 2 END, queued_at, id LIMIT 1) AS head`);
  const first = await timed(() => readIncidentQueueFrom(db, undefined, 100));
  if (first.result.incidents[0]?.id !== truth.head) throw new Error(`queue head ${first.result.incidents[0]?.id}, SQL ${truth.head}`);
  let cursor = first.result.next ?? undefined;
  for (let page = 1; page < 20 && cursor; page++) cursor = (await readIncidentQueueFrom(db, cursor, 100)).next ?? undefined;
  const deep = await timed(() => readIncidentQueueFrom(db, cursor, 100));
  const hidden = await timed(() => readIncidentQueueFrom(db, undefined, 100, { visibility: "hide" }));
  const count = await timed(() => countOpenIncidents(db, "show"));
  if (count.result.total !== truth.open) throw new Error(`open incidents ${count.result.total}, SQL ${truth.open}`);
  const countHidden = await timed(() => countOpenIncidents(db, "hide"));
  const board = await timed(() => readBoardFrom(db));
  const country = await timed(() => readIncidentMapFrom(db, COUNTRY), 10);
  const city = await timed(() => readIncidentMapFrom(db, CITY));
  const mapSql = incidentMapCellsSql(COUNTRY);
  const { rows: plan } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${mapSql.text}`, mapSql.values);
  console.log(`incident map at country zoom, ${size} calls:\n${plan.map((row) => `   ${row["QUERY PLAN"]}`).join("\n")}`);
  const result = {
    size,
    open_incidents: truth.open,
    queue_first_100: { p50_ms: first.p50_ms, p95_ms: first.p95_ms },
    queue_page_21: { p50_ms: deep.p50_ms, p95_ms: deep.p95_ms },
    queue_first_100_hide_exercises: { p50_ms: hidden.p50_ms, p95_ms: hidden.p95_ms },
    open_incident_count: { p50_ms: count.p50_ms, p95_ms: count.p95_ms },
    open_incident_count_hide_exercises: { p50_ms: countHidden.p50_ms, p95_ms: countHidden.p95_ms },
    whole_board: { p50_ms: board.p50_ms, p95_ms: board.p95_ms },
    map_country: { p50_ms: country.p50_ms, p95_ms: country.p95_ms, shown: country.result.shown, clusters: country.result.clusters.length },
    map_city: { p50_ms: city.p50_ms, p95_ms: city.p95_ms, shown: city.result.shown, markers: city.result.markers.length },
    load_average: loadavg().map((value) => Math.round(value * 10) / 10),
  };
  console.log(JSON.stringify(result, null, 2));
  return result;
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= "warn";
  delete process.env.REDIS_URL;
  await withScratchClient(server, async (client) => {
    const results = [];
    let stored = 0;
    for (const size of SIZES) {
      const incidents = Math.floor(size / CALLS_PER_INCIDENT);
      const openEvery = stored === 0 ? Math.round(incidents / (OPEN_CALLS / CALLS_PER_INCIDENT)) : 0;
      await seedIncidents(client, stored, incidents - 1, openEvery);
      stored = incidents;
      results.push(await measure(client, size));
    }
    console.log("\nRESULTS", JSON.stringify(results));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
