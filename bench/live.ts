/**
 * The live picture at 100,000 and 1,000,000 stored calls (about 50,000 open in both), against the
 * production build, in a database of its own (created here, dropped at the end):
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres BENCH_PORT=3103 npx tsx bench/live.ts
 *
 * BENCH_SIZES=100000 (default 100000,1000000) limits the sizes; BENCH_IDLE_SECONDS (default 60)
 * the idle window. Rows are loaded with INSERT ... SELECT generate_series (the numbering trigger is
 * switched off for the load, so closed calls keep old change times; the counting triggers stay on).
 * Two app instances (the production server, `npm run build` first; TRUST_PROXY=1 so the bench can
 * name client addresses) serve the same database; for each size it prints, and checks:
 *   - the board's open counts against SQL, and that the oldest open critical call heads the queue;
 *   - p50 of the board, the queue's first window, a map viewport at country zoom (and its bytes),
 *     a change-feed page;
 *   - in Chromium: first marker, then API bytes over an idle minute on the dashboard;
 *   - webhook-to-dashboard latency: calls posted to instance B (and A), until the page's
 *     "<N> open" shows them;
 *   - 500 concurrent stream clients on instance A: its extra memory, and that each got every change.
 */
import { loadavg } from "node:os";
import pg from "pg";
import type { Page } from "@playwright/test";
import { mapCellsSql } from "../lib/board/call-map";
import { benchAuth, type ProductionServer, startProductionServer } from "./production-server";
import { postCall } from "./post-call";
import { withScratchClient } from "./scratch-database";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const portA = Number(process.env.BENCH_PORT ?? 3103);
const portB = portA + 100;
const SIZES = (process.env.BENCH_SIZES ?? "100000,1000000").split(",").map(Number);
const OPEN = 50_000;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const STREAM_CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 500);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 20);
/** The whole continental US at zoom 4 in a 1440 x 900 window, padded as the dashboard asks. */
const COUNTRY = "west=-135&south=17&east=-60&north=55&zoom=4";
const CITY = "west=-118.7&south=33.8&east=-118.1&north=34.2&zoom=11";

const TYPES = ["structure_fire", "medical_emergency", "flooding", "wind_damage", "gas_leak", "vehicle_accident", "trapped_person", "power_outage"];
const sqlArray = (values: string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(",")}]`;

/**
 * Rows first..last, row g happened g * 2 s before now, spread over the continental US. `openEvery`:
 * every such row is open (active, dispatched or enroute), so open calls span all ages; the others
 * closed half an hour after they came in.
 */
function seedSql(first: number, last: number, openEvery: number): string {
  return `
    INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
      transcript_length, created_at, updated_at, changed_at, emergency_type, location, latitude, longitude,
      location_source, severity, status, simulation, table_name)
    SELECT lpad(to_hex(g), 12, '0'), 'conv_live_' || g, b.at, 'agent_bench',
      'Caller reported an emergency. Units dispatched.', true, 45 + h % 555, 1 + h % 40, b.at, b.at,
      CASE WHEN b.open THEN b.at ELSE b.at + interval '30 minutes' END,
      (${sqlArray(TYPES)})[1 + (h >> 3) % ${TYPES.length}], (100 + h % 2900)::text || ' Main St, Somewhere',
      25 + (h % 24000) / 1000.0, -124 + ((h >> 9) % 57000) / 1000.0, 'platform',
      CASE WHEN h % 10 < 2 THEN 'critical' WHEN h % 10 < 6 THEN 'high' ELSE 'moderate' END,
      CASE WHEN b.open THEN (ARRAY['active','dispatched','enroute'])[1 + (h >> 4) % 3]
           WHEN h % 7 = 0 THEN 'failed' ELSE 'resolved' END,
      false, 'calls'
    FROM generate_series(${first}, ${last}) AS g
    CROSS JOIN LATERAL (SELECT hashint4(g)::bigint & 2147483647 AS h) AS r
    CROSS JOIN LATERAL (
      SELECT date_trunc('second', now() - g * interval '2 seconds') AS at, ${openEvery > 0 ? `g % ${openEvery} = 0` : "false"} AS open
    ) AS b`;
}

async function seed(client: pg.Client, first: number, last: number, openEvery: number): Promise<void> {
  const started = performance.now();
  try {
    await client.query('ALTER TABLE calls DISABLE TRIGGER "calls_change_stamp"');
    for (let from = first; from <= last; from += 100_000) {
      await client.query(seedSql(from, Math.min(from + 99_999, last), openEvery));
    }
    // Each loaded call opened an incident of its own, which stays active whatever its call's status:
    // the incidents of closed calls are closed with them, when they were, as a dispatcher would have.
    await client.query(`
      UPDATE incidents i SET status = c.status, updated_at = c.changed_at FROM calls c
      WHERE c.incident_id = i.id AND c.status NOT IN ('active', 'dispatched', 'enroute') AND i.status <> c.status`);
    await client.query("VACUUM ANALYZE calls");
    await client.query("VACUUM ANALYZE call_counts");
    await client.query("VACUUM ANALYZE call_hour_counts");
    // Each loaded call opened an incident of its own (a row inserted, then filled in): the state
    // autovacuum would reach after such a load, as for the calls above.
    await client.query("VACUUM ANALYZE incidents");
    const sql = mapCellsSql({ west: -135, south: 17, east: -60, north: 55, zoom: 4, closedHours: 6, exercises: "show" });
    const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql.text}`, sql.values);
    console.log(`map at country zoom, ${last} rows:\n${rows.map((row) => `   ${row["QUERY PLAN"]}`).join("\n")}`);
  } finally {
    await client.query('ALTER TABLE calls ENABLE TRIGGER "calls_change_stamp"');
  }
  console.log(`seeded rows ${first}..${last} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// ---- Servers ------------------------------------------------------------------------------------

interface Instance { port: number; base: string; server: ProductionServer }

/** The production server on the bench's database; TRUST_PROXY=1 so the bench can name client addresses. */
async function startInstance(url: string, port: number): Promise<Instance> {
  const server = await startProductionServer(port, { DATABASE_URL: url, TRUST_PROXY: "1", REDIS_URL: "" });
  return { port, base: server.base, server };
}

// ---- HTTP measurements ---------------------------------------------------------------------------

const benchClient = { "x-forwarded-for": "198.51.100.7", ...benchAuth };

async function timed(url: string, runs = 30): Promise<{ p50: number; p95: number; bytes: number; body: unknown }> {
  const times: number[] = [];
  let bytes = 0;
  let body: unknown;
  for (let run = 0; run < runs + 3; run++) {
    const started = performance.now();
    const response = await fetch(url, { headers: benchClient });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
    if (run >= 3) times.push(elapsed);
    bytes = Buffer.byteLength(text);
    body = JSON.parse(text);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), bytes, body };
}

async function checkTruth(client: pg.Client, base: string): Promise<Record<string, unknown>> {
  const { rows } = await client.query<{ severity: string; n: string }>(
    "SELECT severity, count(*) AS n FROM calls WHERE status IN ('active','dispatched','enroute') GROUP BY 1",
  );
  const sql = Object.fromEntries(rows.map((row) => [row.severity, Number(row.n)]));
  const sqlTotal = Object.values(sql).reduce((a, b) => a + b, 0);
  const { rows: oldest } = await client.query<{ id: string }>(
    `SELECT conversation_id AS id FROM calls WHERE severity = 'critical' AND status IN ('active','dispatched','enroute')
     ORDER BY occurred_at ASC, id DESC LIMIT 1`,
  );
  const board = (await (await fetch(`${base}/api/live/board`, { headers: benchClient })).json()) as {
    open: { total: number; by_severity: Record<string, number> };
  };
  const queue = (await (await fetch(`${base}/api/live/queue?limit=100`, { headers: benchClient })).json()) as {
    calls: { conversation_id: string }[];
  };
  const result = {
    sql_open: sqlTotal,
    board_open: board.open.total,
    sql_by_severity: sql,
    board_by_severity: board.open.by_severity,
    oldest_open_critical: oldest[0]?.id,
    queue_first: queue.calls[0]?.conversation_id,
  };
  const exact =
    sqlTotal === board.open.total &&
    Object.entries(sql).every(([level, n]) => board.open.by_severity[level] === n) &&
    oldest[0]?.id === queue.calls[0]?.conversation_id;
  if (!exact) throw new Error(`the live picture differs from SQL: ${JSON.stringify(result)}`);
  return result;
}

// ---- Browser -------------------------------------------------------------------------------------

/** Records each text the "<N> open" label takes, with the wall-clock time it took it. */
const LABEL_PROBE = `
  window.__labels = [];
  const watch = () => {
    const label = document.querySelector(".queue-total");
    if (!label) return setTimeout(watch, 50);
    window.__labels.push({ at: Date.now(), text: label.textContent });
    new MutationObserver(() => window.__labels.push({ at: Date.now(), text: label.textContent }))
      .observe(label, { childList: true, characterData: true, subtree: true });
  };
  watch();
`;

async function openCount(page: Page): Promise<number> {
  return Number(((await page.locator(".queue-total").textContent()) ?? "").replace(/[^\d]/g, ""));
}

async function browserRun(a: Instance, b: Instance, size: number) {
  const browser = await launchBenchBrowser();
  try {
    const { context, page } = await newDashboardPage(browser, a.base);
    await page.addInitScript(LABEL_PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const apiRequests = new Set<string>();
    let counting = false;
    let apiBytes = 0;
    let apiRequestsCounted = 0;
    cdp.on("Network.requestWillBeSent", (event) => {
      if (new URL(event.request.url).pathname.startsWith("/api/")) {
        apiRequests.add(event.requestId);
        if (counting) apiRequestsCounted += 1;
      }
    });
    // Every byte received for an API request, streamed ones included, headers and bodies.
    cdp.on("Network.dataReceived", (event) => {
      if (counting && apiRequests.has(event.requestId)) apiBytes += event.encodedDataLength;
    });
    cdp.on("Network.responseReceived", (event) => {
      if (counting && apiRequests.has(event.requestId)) apiBytes += event.response.encodedDataLength ?? 0;
    });

    await page.goto(a.base, { waitUntil: "commit" });
    await page.locator(".leaflet-marker-pane .leaflet-marker-icon").first().waitFor({ state: "visible", timeout: 60_000 });
    const firstMarkerMs = Math.round(await page.evaluate(() => (window as unknown as { __firstMarkerMs: number }).__firstMarkerMs));
    // What the page fetched before its first marker, from navigation start: where the time went.
    const beforeFirstMarker = await page.evaluate((until) =>
      performance.getEntriesByType("resource")
        .filter((entry) => entry.startTime < until)
        .map((entry) => {
          const url = new URL(entry.name);
          return `${url.pathname.startsWith("/api/") ? url.pathname + url.search : url.pathname.split("/").at(-1)} ${Math.round(entry.startTime)}-${Math.round((entry as PerformanceResourceTiming).responseEnd)}`;
        }), firstMarkerMs);
    await page.getByTestId("feed-mode").filter({ hasText: "Live" }).waitFor({ timeout: 30_000 });
    const shownOpen = await openCount(page);
    await page.waitForTimeout(3_000);

    counting = true;
    await page.waitForTimeout(IDLE_SECONDS * 1000);
    counting = false;
    const idleBytesPerMinute = Math.round((apiBytes * 60) / IDLE_SECONDS);
    const idleRequests = apiRequestsCounted;

    // Webhook to dashboard: each call posted once the page has settled, alternately to B and A.
    const latencies: Record<"B" | "A", number[]> = { A: [], B: [] };
    for (let i = 0; i < WEBHOOKS; i++) {
      const target = i % 2 === 0 ? "B" : "A";
      const before = await openCount(page);
      const sent = Date.now();
      await postCall(target === "B" ? b.base : a.base, `bench-live-${size}-${i}`);
      const wanted = (before + 1).toLocaleString("en-US");
      const handle = await page.waitForFunction(
        ({ since, text }) => {
          const labels = (window as unknown as { __labels: { at: number; text: string }[] }).__labels;
          return labels.find((label) => label.at >= since && label.text.startsWith(text))?.at ?? false;
        },
        { since: sent, text: wanted },
        { timeout: 15_000, polling: 50 },
      );
      latencies[target].push(Number(await handle.jsonValue()) - sent);
      await page.waitForTimeout(1_500);
    }
    await context.close();
    const summary = (values: number[]) => {
      const sorted = [...values].sort((x, y) => x - y);
      return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) };
    };
    return {
      first_marker_ms: firstMarkerMs,
      fetched_before_first_marker_ms: beforeFirstMarker,
      shown_open: shownOpen,
      idle_api_bytes_per_minute: idleBytesPerMinute,
      idle_api_requests: idleRequests,
      webhook_to_dashboard_ms: { via_other_instance: summary(latencies.B), via_same_instance: summary(latencies.A) },
    };
  } finally {
    await browser.close();
  }
}

// ---- Many stream clients -------------------------------------------------------------------------

async function streamClients(a: Instance, b: Instance, size: number) {
  const rssBefore = a.server.rssMiB();
  const controllers: AbortController[] = [];
  const received: Set<string>[] = [];
  const connected: Promise<void>[] = [];
  for (let i = 0; i < STREAM_CLIENTS; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const seen = new Set<string>();
    received.push(seen);
    connected.push(
      (async () => {
        const response = await fetch(`${a.base}/api/calls/stream`, {
          signal: controller.signal,
          headers: { "x-forwarded-for": `10.${(i >> 8) & 255}.${i & 255}.1`, ...benchAuth },
        });
        if (!response.ok || !response.body) throw new Error(`stream ${i} answered ${response.status}`);
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        let first = true;
        return new Promise<void>((resolve) => {
          void (async () => {
            try {
              for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                buffer += decoder.decode(value, { stream: true });
                if (first && buffer.includes("connected")) {
                  first = false;
                  resolve();
                }
                for (const match of buffer.matchAll(/"conversation_id":"(bench-stream-[^"]+)"/g)) seen.add(match[1]);
                buffer = buffer.slice(Math.max(0, buffer.lastIndexOf("\n\n")));
              }
            } catch {
              // aborted
            }
          })();
        });
      })(),
    );
  }
  await Promise.all(connected);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const rssConnected = a.server.rssMiB();
  const ids = Array.from({ length: 10 }, (_, i) => `bench-stream-${size}-${i}`);
  const started = Date.now();
  for (const id of ids) await postCall(b.base, id);
  const deadline = Date.now() + 60_000;
  while (received.some((seen) => seen.size < ids.length) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const allReceivedMs = Date.now() - started;
  const complete = received.filter((seen) => ids.every((id) => seen.has(id))).length;
  const rssPeak = a.server.rssMiB();
  for (const controller of controllers) controller.abort();
  return {
    clients: STREAM_CLIENTS,
    clients_with_every_change: complete,
    all_delivered_ms: allReceivedMs,
    rss_before_mib: Math.round(rssBefore),
    rss_connected_mib: Math.round(rssConnected),
    rss_after_changes_mib: Math.round(rssPeak),
    extra_mib: Math.round(Math.max(rssConnected, rssPeak) - rssBefore),
  };
}

// ---- Main ----------------------------------------------------------------------------------------

async function measureSize(client: pg.Client, url: string, size: number) {
  const a = await startInstance(url, portA);
  const b = await startInstance(url, portB);
  try {
    const truth = await checkTruth(client, a.base);
    const board = await timed(`${a.base}/api/live/board`);
    const queue = await timed(`${a.base}/api/live/queue?limit=100`);
    const country = await timed(`${a.base}/api/live/map?${COUNTRY}`);
    const city = await timed(`${a.base}/api/live/map?${CITY}`);
    const head = (board.body as { cursor: number }).cursor;
    const feedPage = await timed(`${a.base}/api/calls/changes?after=${Math.max(0, head - 20_000)}&limit=500`);
    const feedPage100 = await timed(`${a.base}/api/calls/changes?after=${Math.max(0, head - 20_000)}&limit=100`);
    const feedHead = await timed(`${a.base}/api/calls/changes?after=${head}`);
    const http = {
      board: { p50_ms: board.p50, p95_ms: board.p95, bytes: board.bytes },
      queue_first_100: { p50_ms: queue.p50, p95_ms: queue.p95, bytes: queue.bytes },
      map_country_zoom4: {
        p50_ms: country.p50, p95_ms: country.p95, bytes: country.bytes,
        clusters: (country.body as { clusters: unknown[] }).clusters.length, shown: (country.body as { shown: number }).shown,
      },
      map_city_zoom11: { p50_ms: city.p50, p95_ms: city.p95, bytes: city.bytes },
      changes_page_500: { p50_ms: feedPage.p50, p95_ms: feedPage.p95, bytes: feedPage.bytes },
      changes_page_100: { p50_ms: feedPage100.p50, p95_ms: feedPage100.p95, bytes: feedPage100.bytes },
      changes_at_head: { p50_ms: feedHead.p50, p95_ms: feedHead.p95, bytes: feedHead.bytes },
    };
    console.log(JSON.stringify({ size, truth, http, load_average: loadavg().map((value) => Math.round(value * 10) / 10) }, null, 2));
    const browser = await browserRun(a, b, size);
    console.log(JSON.stringify({ size, browser, load_average: loadavg().map((value) => Math.round(value * 10) / 10) }, null, 2));
    const streams = await streamClients(a, b, size);
    console.log(JSON.stringify({ size, streams }, null, 2));
    return { size, truth, http, browser, streams };
  } finally {
    a.server.stop();
    b.server.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

async function main(): Promise<void> {
  delete process.env.REDIS_URL;
  await withScratchClient(server, async (client, url) => {
    const results = [];
    let stored = 0;
    for (const size of SIZES) {
      // The first load holds the open calls, spread over its ages; later loads add closed calls only.
      await seed(client, stored + 1, size, stored === 0 ? Math.round(size / OPEN) : 0);
      stored = size;
      results.push(await measureSize(client, url, size));
    }
    console.log("\nRESULTS", JSON.stringify(results));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
