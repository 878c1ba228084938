/**
 * A response plan filled on the roads (issue 54 acceptance 3, docs/units.md): the domain function
 * behind GET /api/incidents/{id}/units in process, then the endpoint of the production build, on a scratch database holding the synthetic
 * county's 99,400 centreline segments (bench/gis-county.ts, imported through the GIS import):
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/plan-recommend.ts
 *
 * 500 units at stations spread over one town (where no other town's streets cross its own), of
 * every type, nine in ten free; a critical structure fire in the same town. The first call builds
 * the road network; 10 warm-up runs, then 200 timed: p50, p95, max, and the search alone for the
 * same units (the rest is the database's reads). It checks that the plan is complete and that every
 * free unit's time is on the roads.
 */
import { Readable } from "node:stream";
import { fromLocal } from "../lib/geocoding/centre/geometry";
import { importGisLayer } from "../lib/geocoding/centre/import";
import { getRoadNetwork } from "../lib/geocoding/centre/loaded";
import { recommendUnits } from "../lib/units/recommend";
import { centrelines, townOf } from "../tests/support/gis-town";
import { random } from "../tests/support/calls";
import { COUNTY } from "./gis-county";
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seedIncidents } from "./seed-incidents";
import { loadAverage, percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const UNITS = 500;
const RUNS = 200;
/** The bench's town: the last of a row, whose west 2.1 km the town before it overlaps (bench/road-network.ts). */
const TOWN = townOf(4, COUNTY);
const WEST = 2_100;
const SIZE = (COUNTY.grid - 1) * 150;
const TYPES = ["engine", "engine", "ladder", "rescue", "ambulance", "ambulance", "patrol", "hazmat", "command", "other"];

/** The county's centrelines as one GeoJSON stream, feature by feature. */
function* countyGeoJson(): Generator<Buffer> {
  yield Buffer.from('{"type":"FeatureCollection","features":[');
  let first = true;
  for (const line of centrelines(COUNTY)) {
    yield Buffer.from(`${first ? "" : ","}${JSON.stringify({ type: "Feature", properties: line.properties, geometry: { type: "LineString", coordinates: line.coordinates } })}`);
    first = false;
  }
  yield Buffer.from("]}");
}

async function main(): Promise<void> {
  console.log(`load average before: ${loadAverage().join(" ")}`);
  await withScratchClient(server, async (client, url) => {
    const imported = await importGisLayer({ format: "geojson", chunks: Readable.from(countyGeoJson()) as AsyncIterable<Uint8Array>, sourceName: "county.geojson", layer: "centrelines" });
    console.log(`imported ${imported.features} centrelines`);
    const next = random(54);
    const point = () => fromLocal(TOWN.origin, WEST + next() * (SIZE - WEST), next() * SIZE);
    const incident = point();
    await seedIncidents(client, 0, 0, 1);
    await client.query(`UPDATE incidents SET latitude = $1, longitude = $2, emergency_type = 'structure_fire', severity = 'critical' WHERE id = 'inc_0'`, [incident.lat, incident.lon]);
    const stations = Array.from({ length: UNITS }, point);
    await client.query(`
      INSERT INTO units (id, call_sign, name, type, station, station_latitude, station_longitude, state)
      SELECT 'unit_' || u, 'U' || lpad(u::text, 4, '0'), 'Unit ' || u, ($1::text[])[1 + u % ${TYPES.length}], 'Station ' || u,
        ($2::float8[])[u], ($3::float8[])[u], CASE WHEN u % 10 = 9 THEN 'out_of_service' ELSE 'available' END
      FROM generate_series(1, ${UNITS}) AS u`, [TYPES, stations.map((station) => station.lat), stations.map((station) => station.lon)]);
    await client.query("ANALYZE units");

    const started = performance.now();
    await recommendUnits("inc_0");
    const firstMs = performance.now() - started;
    const { last: answer, times } = await timed(() => recommendUnits("inc_0"), 10);
    // The search alone, for the same units: what of the time is the roads' and what the database's.
    const network = (await getRoadNetwork())!;
    const { times: searches } = await timed(() => network.travelTimes(incident, stations), 0);
    const http = await overHttp(url);
    const routed = answer.units.filter((entry) => entry.travel === "route").length;
    console.log(JSON.stringify({
      segments: imported.features,
      units: UNITS,
      recommended: answer.units.length,
      first_call_ms_with_network_build: Math.round(firstMs),
      runs: RUNS,
      ...figures(times),
      search_alone_p50_ms: ms(percentile(searches, 0.5)),
      search_alone_p95_ms: ms(percentile(searches, 0.95)),
      plan: answer.plan?.slots.map((slot) => `${slot.type} ${slot.call_sign ?? slot.unfilled_reason}`),
      plan_complete: answer.plan?.complete,
      routed: `${routed} of ${answer.units.length}`,
      over_http: http,
      load_average_after: loadAverage(),
    }, null, 2));
    if (!answer.plan?.complete || routed !== answer.units.length || !http.same_plan) process.exitCode = 1;
  });
}

/** `work` run `warmUp` times untimed, then RUNS times one after another: its last result and the times, sorted. */
async function timed<T>(work: () => T | Promise<T>, warmUp: number): Promise<{ last: T; times: number[] }> {
  for (let run = 0; run < warmUp; run++) await work();
  const times: number[] = [];
  let last!: T;
  for (let run = 0; run < RUNS; run++) {
    const begun = performance.now();
    last = await work();
    times.push(performance.now() - begun);
  }
  return { last, times: times.sort((a, b) => a - b) };
}

const ms = (value: number) => Math.round(value * 100) / 100;
const figures = (sorted: number[]) => ({ p50_ms: ms(percentile(sorted, 0.5)), p95_ms: ms(percentile(sorted, 0.95)), max_ms: ms(sorted.at(-1)!) });

/** The same recommendation from the production build over HTTP, one request at a time. */
async function overHttp(databaseUrl: string) {
  const production = await startProductionServer(Number(process.env.BENCH_PORT ?? 3105), { DATABASE_URL: databaseUrl, REDIS_URL: "" });
  try {
    const ask = async () => {
      const response = await fetch(`${production.base}/api/incidents/inc_0/units`, { headers: benchAuth });
      if (!response.ok) throw new Error(`GET /api/incidents/inc_0/units: ${response.status} ${await response.text()}`);
      return (await response.json()) as Awaited<ReturnType<typeof recommendUnits>>;
    };
    const started = performance.now();
    await ask();
    const firstMs = performance.now() - started;
    const { last: answer, times } = await timed(ask, 10);
    return {
      first_answer_ms_with_network_build: Math.round(firstMs),
      ...figures(times),
      same_plan: answer.plan?.complete === true && answer.units.every((entry) => entry.travel === "route"),
      server_rss_mib: Math.round(production.rssMiB()),
    };
  } finally {
    production.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
