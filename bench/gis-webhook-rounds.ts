/**
 * The geocoding half of bench/gis-vs-floor.sh: signed post-call events whose location is a
 * spoken address of the county (bench/gis-county.ts) and no coordinates, so the service places
 * each with the centre's GIS index, posted to the floor and the service in turns (floor, service,
 * floor, service: the machine's drift falls on both), CONNECTIONS at a time, each from one of 500
 * documentation addresses behind the trusted proxy (the per-client limits stay on, not the load):
 *
 *   npx tsx bench/gis-webhook-rounds.ts <floor api> <service api> <service database url> <spoken.json>
 *
 * First one event to the service, answered once its index is built (the first geocode builds it).
 * After the rounds, the service's database says how many acknowledged calls it holds and where
 * they were placed from. Prints one JSON object.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { Pool } from "undici";
import type { SpokenAddress } from "../tests/support/gis-town";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "../lib/voice-platforms/elevenlabs/signature";
import { percentile } from "./stats";

const SECRET = process.env.PERF_SECRET ?? "perf-secret";
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_MS = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Target {
  label: string;
  api: URL;
  pool: Pool;
}

let sent = 0;
function clientAddress() {
  const k = sent++ % 500;
  return k < 250 ? `198.51.100.${k + 1}` : `203.0.113.${k - 249}`;
}

async function post(target: Target, id: string, location: string): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify(specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) }));
  const started = performance.now();
  const response = await target.pool.request({
    method: "POST",
    path: `${target.api.pathname}/voiceagent-webhook`,
    headers: { "content-type": "application/json", "voiceagent-signature": signatureHeader(SECRET, body), "x-forwarded-for": clientAddress() },
    body,
  });
  await response.body.text();
  return { status: response.statusCode, ms: performance.now() - started };
}

/** CONNECTIONS closed loops for DURATION_MS: each posts its next event once the last is answered. */
async function round(target: Target, tag: string, spoken: SpokenAddress[]) {
  const acked: string[] = [];
  const times: number[] = [];
  let failed = 0;
  let n = 0;
  const until = performance.now() + DURATION_MS;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < until) {
      const id = `${tag}-${n++}`;
      const { status, ms } = await post(target, id, spoken[n % spoken.length].text);
      times.push(ms);
      if (status === 200) acked.push(id);
      else failed++;
    }
  }));
  times.sort((a, b) => a - b);
  return { requests: times.length, acked, failed, reqPerS: times.length / (DURATION_MS / 1000), p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

async function main() {
  const [floorApi, serviceApi, serviceDatabase, spokenFile] = process.argv.slice(2);
  if (!spokenFile) throw new Error("usage: npx tsx bench/gis-webhook-rounds.ts <floor api> <service api> <service database url> <spoken.json>");
  const spoken = JSON.parse(readFileSync(spokenFile, "utf8")) as SpokenAddress[];
  const targets: Target[] = [["floor", floorApi], ["service", serviceApi]].map(([label, api]) => ({
    label, api: new URL(api), pool: new Pool(new URL(api).origin, { connections: CONNECTIONS }),
  }));
  const run = `gis-${Date.now().toString(36)}`;

  const warm = performance.now();
  const first = await post(targets[1], `${run}-warm`, spoken[0].text);
  if (first.status !== 200) throw new Error(`the service's first geocoded event answered ${first.status}`);
  const warmSeconds = (performance.now() - warm) / 1000;

  const results: Record<string, Awaited<ReturnType<typeof round>>[]> = { floor: [], service: [] };
  for (let r = 1; r <= ROUNDS; r++) {
    for (const target of targets) {
      console.error(`  geocoded webhook round ${r} on ${target.label}`);
      results[target.label].push(await round(target, `${run}-${target.label}-${r}`, spoken));
    }
  }
  await Promise.all(targets.map((target) => target.pool.close()));

  const db = new pg.Client({ connectionString: serviceDatabase });
  await db.connect();
  const acked = results.service.flatMap((result) => result.acked);
  const { rows: stored } = await db.query<{ source: string | null; precision: string | null; calls: number }>(
    `SELECT location_source AS source, location_precision AS precision, count(*)::int AS calls
       FROM calls WHERE conversation_id = ANY($1) GROUP BY 1, 2 ORDER BY 3 DESC`, [acked]);
  const { rows: [layers] } = await db.query<{ points: number; lines: number }>(
    "SELECT (SELECT count(*)::int FROM gis_address_points) AS points, (SELECT count(*)::int FROM gis_centrelines) AS lines");
  await db.end();

  const summary = (label: string) => {
    const rounds = results[label];
    return {
      req_per_s: rounds.map((result) => Number(result.reqPerS.toFixed(1))),
      p50_ms: rounds.map((result) => Number(result.p50.toFixed(1))),
      p99_ms: rounds.map((result) => Number(result.p99.toFixed(1))),
      failed: rounds.reduce((sum, result) => sum + result.failed, 0),
    };
  };
  const mean = (label: string) => results[label].reduce((sum, result) => sum + result.reqPerS, 0) / ROUNDS;
  const storedCount = stored.reduce((sum, row) => sum + row.calls, 0);
  console.log(JSON.stringify({
    gis: layers,
    first_geocoded_event_s: Number(warmSeconds.toFixed(1)),
    floor: summary("floor"),
    service: summary("service"),
    ratio: Number((mean("service") / mean("floor")).toFixed(2)),
    service_acked: acked.length,
    service_lost: acked.length - storedCount,
    service_placed_by: stored,
  }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
