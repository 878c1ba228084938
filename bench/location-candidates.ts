/**
 * Address candidates while typing (docs/calls.md, "GET /api/locations?q="; issue 55 acceptance 3):
 * the synthetic county of bench/gis-county.ts (1,000,000 address points by default) imported into a
 * scratch database through the path of `npm run gis:import`, then real addresses typed key by key:
 * every prefix of each, from its third character, asked in turn as a call-taker's form asks it.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/location-candidates.ts --http 3720
 *
 * `--http <port>` asks GET /api/locations of the production build (`npm run build` first) started on
 * the port over the scratch database, with the bench's key, as the dashboard would; without it, the
 * domain function in this process (no HTTP, no Next). `--points` sets the county's size (ten towns
 * per 1,000,000; a smaller run proves the bench works, its figure is not the target's), `--addresses`
 * how many addresses are typed. Prints p50, p95 and max per keystroke, and the share of whole
 * addresses whose first candidate is their address point (within 30 m); `--record` adds the run to
 * the area's data file in bench/results/ (made by the first recorded run).
 */
import { execFileSync } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { locationCandidates } from "../lib/call-taking/locations";
import type { LocationCandidates } from "../lib/call-taking/schema";
import { distanceMeters } from "../lib/geocoding/centre/geometry";
import { importGisLayer } from "../lib/geocoding/centre/import";
import { getCentreIndex } from "../lib/geocoding/centre/loaded";
import { COUNTY, COUNTY_FILES, writeCounty } from "./gis-county";
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchDatabase } from "./scratch-database";
import { loadAverage, percentile } from "./stats";

const { values } = parseArgs({
  options: {
    points: { type: "string", default: "1000000" },
    addresses: { type: "string", default: "300" },
    http: { type: "string" },
    record: { type: "boolean", default: false },
  },
});
const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const POINTS = Number(values.points);
const ADDRESSES = Number(values.addresses);
/** A person types a few characters before the form asks (the endpoint's `q` takes 3 or more). */
const FIRST_PREFIX = 3;
const TARGET_P95_MS = 50;
const RESULTS = path.join(__dirname, "results", "location-candidates.json");

type Ask = (q: string) => Promise<LocationCandidates>;

/** Every keystroke of each address in turn, timed; and whether the whole address's first candidate is its point. */
async function typeAll(ask: Ask, addresses: { text: string; latitude: number; longitude: number }[]) {
  const timings: number[] = [];
  let found = 0;
  for (const address of addresses) {
    for (let length = FIRST_PREFIX; length <= address.text.length; length++) {
      const q = address.text.slice(0, length);
      if (q.trim().length < FIRST_PREFIX) continue;
      const started = performance.now();
      const answer = await ask(q);
      timings.push(performance.now() - started);
      if (length === address.text.length) {
        const [first] = answer.candidates;
        if (first?.precision === "address_point" && distanceMeters({ lon: first.longitude, lat: first.latitude }, { lon: address.longitude, lat: address.latitude }) <= 30) found++;
      }
    }
  }
  timings.sort((a, b) => a - b);
  const ms = (q: number) => Number(percentile(timings, q).toFixed(2));
  return { keystrokes: timings.length, p50_ms: ms(0.5), p95_ms: ms(0.95), max_ms: ms(1), found };
}

async function main() {
  const directory = mkdtempSync(path.join(tmpdir(), "mayday-candidates-bench-"));
  try {
    const county = await writeCounty(directory, { ...COUNTY, towns: Math.max(1, Math.round((POINTS / 1_000_000) * COUNTY.towns)), maxPoints: POINTS });
    // Real addresses of address points, spread over the county: what a caller gives and a call-taker types.
    const points = county.spoken.filter((address) => address.precision === "address_point" && /^\d/.test(address.text));
    const step = Math.max(1, Math.floor(points.length / ADDRESSES));
    const addresses = points.filter((_, index) => index % step === 0).slice(0, ADDRESSES);
    console.log(`county: ${county.pointCount} address points, ${county.lineCount} centrelines; ${addresses.length} addresses typed`);
    await withScratchDatabase(server, async (url) => {
      for (const file of [COUNTY_FILES.addressPoints, COUNTY_FILES.centrelines]) {
        const started = performance.now();
        const run = await importGisLayer({ format: file.endsWith(".csv") ? "csv" : "geojson", chunks: createReadStream(path.join(directory, file)), sourceName: file });
        console.log(`import ${run.layer}: ${run.features} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
      let ask: Ask;
      let stop = () => {};
      if (values.http) {
        // Keystrokes come from 200 documentation addresses (TRUST_PROXY=1): one call-taker types a few
        // a second, far below the per-client limit the bench's back-to-back keystrokes would reach.
        const production = await startProductionServer(Number(values.http), { DATABASE_URL: url, TRUST_PROXY: "1" });
        stop = () => production.stop();
        let client = 0;
        ask = async (q) => {
          const headers = { ...benchAuth, "x-forwarded-for": `198.51.100.${(client++ % 200) + 1}` };
          const response = await fetch(`${production.base}/api/locations?q=${encodeURIComponent(q)}`, { headers });
          if (response.status !== 200) throw new Error(`GET /api/locations answered ${response.status}: ${await response.text()}`);
          return (await response.json()) as LocationCandidates;
        };
      } else {
        await getCentreIndex();
        ask = (q) => locationCandidates({ q });
      }
      try {
        // The index is built at the first lookup (or at start): one warm-up address, not counted.
        await typeAll(ask, addresses.slice(0, 1));
        const load = loadAverage();
        const run = await typeAll(ask, addresses);
        const mode = values.http ? "HTTP, production build" : "in process";
        console.log(
          `${mode}: ${run.keystrokes} keystrokes, p50 ${run.p50_ms} ms, p95 ${run.p95_ms} ms (target ${TARGET_P95_MS} ms), max ${run.max_ms} ms; ` +
            `${run.found} of ${addresses.length} whole addresses answered their address point first; load ${load.join(" ")}`,
        );
        if (values.record) {
          const results = existsSync(RESULTS)
            ? JSON.parse(readFileSync(RESULTS, "utf8"))
            : { area: "Address candidates while typing (issue 55, `bench/location-candidates.ts`)", source: "bench/location-candidates.ts", bench: ["bench/location-candidates.ts"], measurements: [] };
          results.measurements.push({
            section: null,
            date: new Date().toISOString(),
            commits: [execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()],
            context: `${mode}: ${county.pointCount} address points and ${county.lineCount} centrelines imported into a scratch PostgreSQL database; ${addresses.length} addresses of address points typed key by key from their third character, one request at a time; load ${load.join(" ")}`,
            command: `BENCH_DATABASE_URL=<server> npx tsx bench/location-candidates.ts --points ${POINTS} --addresses ${ADDRESSES}${values.http ? ` --http ${values.http}` : ""} --record`,
            columns: ["measure", "figure"],
            rows: [
              ["keystrokes", String(run.keystrokes)],
              ["p50, p95, max", `${run.p50_ms} ms, ${run.p95_ms} ms, ${run.max_ms} ms (target p95 ${TARGET_P95_MS} ms)`],
              ["whole addresses whose first candidate is their address point", `${run.found} of ${addresses.length}`],
            ],
          });
          writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
        }
      } finally {
        stop();
      }
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
