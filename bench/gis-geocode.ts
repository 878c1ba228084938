/**
 * The centre's GIS data at scale (docs/performance.md, "Centre GIS geocoding"): a synthetic county
 * of 1,000,000 address points and about 100,000 centrelines (tests/support/gis-town.ts), written
 * as CSV and GeoJSON files, imported through the same path as `npm run gis:import` into a scratch
 * database (created here, dropped at the end), then a few thousand spoken addresses geocoded:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres node --expose-gc --import tsx bench/gis-geocode.ts
 *
 * Prints import time and the process's peak memory per layer, the index's build time and size,
 * geocode p50/p95/max and the share placed within 30 m at the right precision.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { getGeocoder } from "../lib/geocoding/geocoder";
import { distanceMeters } from "../lib/geocoding/centre/geometry";
import { importGisLayer } from "../lib/geocoding/centre/import";
import { getCentreIndex } from "../lib/geocoding/centre/loaded";
import {
  addressPointProperties, centrelines, crossingsOf, houses, type SpokenAddress, spokenCrossing, spokenHouse, type TownOptions,
} from "../tests/support/gis-town";
import { random } from "../tests/support/calls";
import { withScratchDatabase } from "./scratch-database";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const COUNTY: TownOptions = { seed: 1, towns: 10, grid: 71, pointsPerSide: 5, centrelineOnlyEvery: 4, maxPoints: 1_000_000 };
const PER_KIND = Number(process.env.BENCH_SPOKEN_PER_KIND ?? 800);

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

async function write(stream: NodeJS.WritableStream, text: string) {
  if (!stream.write(text)) await once(stream, "drain");
}

/** Writes the county's two files, and keeps a sample of what callers would say for each kind of answer. */
async function writeCounty(directory: string) {
  const next = random(COUNTY.seed);
  const points = createWriteStream(path.join(directory, "address-points.csv"));
  const lines = createWriteStream(path.join(directory, "centrelines.geojson"));
  await write(points, "Add_Number,St_PreDir,St_Name,St_PosTyp,Unit,Post_Comm,Post_Code,State,lon,lat\n");
  await write(lines, '{"type":"FeatureCollection","features":[\n');
  const all = [...centrelines(COUNTY)];
  const spoken: SpokenAddress[] = [];
  const keep = (address: SpokenAddress) => spoken.push(address);
  let pointCount = 0;
  for (const [i, line] of all.entries()) {
    await write(lines, `${i ? ",\n" : ""}${JSON.stringify({ type: "Feature", properties: line.properties, geometry: { type: "LineString", coordinates: line.coordinates } })}`);
    for (const house of houses(line, COUNTY.pointsPerSide, next)) {
      const stored = line.addressPoints && pointCount < COUNTY.maxPoints!;
      if (stored) {
        const properties = addressPointProperties(line, house);
        await write(points, `${house.number},${properties.St_PreDir},${properties.St_Name},${properties.St_PosTyp},${properties.Unit},${properties.Post_Comm},${properties.Post_Code},IL,${house.lon.toFixed(7)},${house.lat.toFixed(7)}\n`);
        pointCount++;
      }
      // About PER_KIND of each kind, spread over the whole county.
      if (next() * all.length * 12 > PER_KIND * 4) continue;
      if (!stored) keep(spokenHouse(line, house, "interpolated", next));
      else if (house.unit || next() < 0.5) keep(spokenHouse(line, house, "address_point", next));
      else if (line.eastWest) keep(spokenHouse(line, house, "address_point", next, { typo: true }));
    }
  }
  for (const { line, crossing } of crossingsOf(all, COUNTY).filter(() => next() * 100_000 < PER_KIND * 3)) keep(spokenCrossing(line, crossing, next));
  await write(lines, "\n]}\n");
  points.end();
  lines.end();
  await Promise.all([once(points, "finish"), once(lines, "finish")]);
  return { pointCount, lineCount: all.length, spoken };
}

async function timedImport(file: string) {
  collect();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const started = performance.now();
  const result = await importGisLayer({ format: file.endsWith(".csv") ? "csv" : "geojson", chunks: createReadStream(file), sourceName: path.basename(file) });
  clearInterval(sampler);
  return { ...result, seconds: (performance.now() - started) / 1000, baselineRss: baseline, peakRss: peak };
}

async function main() {
  const directory = mkdtempSync(path.join(tmpdir(), "mayday-gis-bench-"));
  try {
    const county = await writeCounty(directory);
    console.log(`county: ${county.pointCount} address points, ${county.lineCount} centrelines, ${county.spoken.length} spoken addresses`);
    await withScratchDatabase(server, async () => {
      for (const file of ["address-points.csv", "centrelines.geojson"]) {
        const run = await timedImport(path.join(directory, file));
        console.log(`import ${run.layer}: ${run.features} features in ${run.seconds.toFixed(1)} s, RSS ${mb(run.baselineRss)} before, ${mb(run.peakRss)} at peak`);
      }
      collect();
      const before = process.memoryUsage();
      const started = performance.now();
      const index = await getCentreIndex();
      const loadSeconds = (performance.now() - started) / 1000;
      collect();
      const after = process.memoryUsage();
      console.log(
        `index: ${index?.pointCount} points, ${index?.lineCount} lines, ${index?.streets.length} streets built in ${loadSeconds.toFixed(1)} s; ` +
          `heap +${mb(after.heapUsed - before.heapUsed)}, array buffers +${mb(after.arrayBuffers - before.arrayBuffers)}, RSS ${mb(after.rss)}`,
      );
      const geocoder = getGeocoder();
      const timings: number[] = [];
      const byKind = new Map<string, { right: number; total: number }>();
      for (const address of county.spoken) {
        const started = performance.now();
        const found = await geocoder.geocode(address.text);
        timings.push(performance.now() - started);
        const right = !!found && found.precision === address.precision &&
          distanceMeters({ lon: found.longitude, lat: found.latitude }, { lon: address.longitude, lat: address.latitude }) <= 30;
        const kind = byKind.get(address.precision) ?? { right: 0, total: 0 };
        byKind.set(address.precision, { right: kind.right + (right ? 1 : 0), total: kind.total + 1 });
      }
      timings.sort((a, b) => a - b);
      console.log(`geocode over ${timings.length}: p50 ${percentile(timings, 0.5).toFixed(2)} ms, p95 ${percentile(timings, 0.95).toFixed(2)} ms, max ${timings.at(-1)!.toFixed(1)} ms`);
      for (const [kind, { right, total }] of byKind) console.log(`  ${kind}: ${right}/${total} within 30 m at that precision`);
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
