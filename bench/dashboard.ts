/**
 * Dashboard benchmark: with 10,000 calls stored, how long from navigation until the first map
 * markers show (target under 2 s), and how much JavaScript the dashboard route loads, gzipped
 * (target under 300 KB).
 *
 *   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test BENCH_PORT=3106 npx tsx bench/dashboard.ts
 *
 * It starts the production build on a fresh database (tests/e2e/serve.ts), stores the calls through
 * POST /api/simulate, then loads the page in Debian's Chromium with an empty cache each run. Tiles
 * are refused, as on these offline machines. The time to first markers is taken in the page
 * (performance.now() when the first marker element is added, counted from navigation start).
 */
import { loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import type { Browser } from "@playwright/test";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { benchAuth, withProductionServer } from "./production-server";
import { percentile } from "./stats";

const port = Number(process.env.BENCH_PORT ?? process.env.E2E_PORT ?? 3106);
const base = `http://localhost:${port}`;
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SCENARIOS = ["la_wildfire", "nashville_tornado", "earthquake_sf", "hurricane_florida"];

async function seed(): Promise<number> {
  const started = Date.now();
  for (let stored = 0, i = 0; stored < CALLS; i += 1) {
    const num_calls = Math.min(1000, CALLS - stored);
    const response = await fetch(`${base}/api/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json", ...benchAuth },
      body: JSON.stringify({ scenario: SCENARIOS[i % 4], num_calls, table_name: "bench-dashboard", seed: i }),
    });
    if (!response.ok) throw new Error(`simulate answered ${response.status}: ${await response.text()}`);
    stored += ((await response.json()) as { successful: number }).successful;
  }
  return Date.now() - started;
}

interface Run { firstMarkerMs: number; wallMs: number; firstListingMs: number; initialJsGzip: number; allJsGzip: number; scripts: number }

async function measure(browser: Browser): Promise<Run> {
  const { context, page } = await newDashboardPage(browser, base);
  const scripts = new Map<string, number>();
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script" || !response.url().startsWith(base)) return;
    try {
      scripts.set(response.url(), gzipSync(await response.body()).length);
    } catch {
      // a response whose body is gone (navigation) is not counted
    }
  });
  let firstListingMs = 0;
  const started = Date.now();
  page.on("requestfinished", (request) => {
    if (!firstListingMs && request.url().includes("/api/live/board")) firstListingMs = request.timing().responseEnd;
  });
  const navigation = await page.goto(base, { waitUntil: "commit" });
  await page.locator(".leaflet-marker-pane .leaflet-marker-icon").first().waitFor({ state: "visible", timeout: 30_000 });
  const wallMs = Date.now() - started;
  const firstMarkerMs = Math.round(await page.evaluate(() => (window as unknown as { __firstMarkerMs: number }).__firstMarkerMs));
  // The change stream stays open, so the network never goes idle: wait for the stream instead.
  await page.getByTestId("feed-mode").filter({ hasText: "Live" }).waitFor({ timeout: 30_000 });
  // First-load JS: the scripts the HTML itself names (the map chunk is requested by script later).
  const html = (await navigation?.text()) ?? "";
  const initial = new Set(Array.from(html.matchAll(/<script[^>]+src="([^"]+)"/g), (match) => new URL(match[1], base).href));
  const sum = (urls: Iterable<string>) => Array.from(urls).reduce((total, url) => total + (scripts.get(url) ?? 0), 0);
  const run = {
    firstMarkerMs,
    wallMs,
    firstListingMs: Math.round(firstListingMs),
    initialJsGzip: sum(Array.from(initial).filter((url) => scripts.has(url))),
    allJsGzip: sum(scripts.keys()),
    scripts: scripts.size,
  };
  await context.close();
  return run;
}

function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

async function main(): Promise<void> {
  await withProductionServer(port, async () => {
    const seedMs = await seed();
    const total = ((await (await fetch(`${base}/api/calls?limit=1`, { headers: benchAuth })).json()) as { pagination: { total: number } }).pagination.total;
    const browser = await launchBenchBrowser();
    await measure(browser); // warms the server (route compilation caches, database), not counted
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await measure(browser));
    await browser.close();
    const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
    const result = {
      calls_stored: total,
      seed_ms: seedMs,
      runs: runs.length,
      first_marker_ms: { median: median(runs.map((run) => run.firstMarkerMs)), max: Math.max(...runs.map((run) => run.firstMarkerMs)) },
      // Seen from the test driver, which polls the page: includes the driver's own delays.
      driver_wall_ms: median(runs.map((run) => run.wallMs)),
      load_average: loadavg().map((value) => Math.round(value * 100) / 100),
      first_board_response_ms: median(runs.map((run) => run.firstListingMs)),
      first_load_js_gzip_kb: kb(median(runs.map((run) => run.initialJsGzip))),
      all_js_until_markers_gzip_kb: kb(median(runs.map((run) => run.allJsGzip))),
      script_files: runs[0].scripts,
    };
    console.log(JSON.stringify(result, null, 2));
    const ok = result.first_marker_ms.median < 2000 && result.first_load_js_gzip_kb < 300;
    console.log(ok ? "PASS: first markers under 2 s, first-load JS under 300 KB gzipped" : "FAIL: a target was missed");
    process.exitCode = ok ? 0 : 1;
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
