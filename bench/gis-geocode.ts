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
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { getGeocoder } from "../lib/geocoding/geocoder";
import { distanceMeters } from "../lib/geocoding/centre/geometry";
import { importGisLayer } from "../lib/geocoding/centre/import";
import { getCentreIndex } from "../lib/geocoding/centre/loaded";
import { writeCounty } from "./gis-county";
import { withScratchDatabase } from "./scratch-database";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

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
