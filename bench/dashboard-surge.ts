/**
 * The dashboard in a surge (issue 25): two production instances over one scratch database, a
 * training exercise releasing 1,000 calls a minute, the dashboard open on instance A in Chromium:
 *
 *   npm run build && BENCH_PORT=3105 npx tsx bench/dashboard-surge.ts
 *
 * Prints, over BENCH_SURGE_SECONDS (default 120) of the surge after a 20 s ramp:
 *   - every byte the page received for /api/* (headers, bodies, stream chunks; DevTools protocol),
 *     per minute, with the requests it made by path;
 *   - webhook calls posted to instance B every 3 s: from the post until instance A's stream (a
 *     second stream client in this process, beside the page) carries the call.
 * With BENCH_IDLE_CALLS=200000 it measures the idle dashboard instead (issue 34, acceptance 4): that
 * many calls stored first (bench/seed-calls.ts), then no exercise and no webhook, only the page's
 * own traffic counted over the same time.
 * BENCH_DATABASE_URL names the server the scratch database is made on.
 */
import { loadavg } from "node:os";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { arrivals, openChangeStream } from "./change-stream";
import { benchAuth, withTwoInstances } from "./production-server";
import { postCall } from "./post-call";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const portA = Number(process.env.BENCH_PORT ?? 3105);
const SURGE_SECONDS = Number(process.env.BENCH_SURGE_SECONDS ?? 120);
const IDLE_CALLS = Number(process.env.BENCH_IDLE_CALLS ?? 0);
const RAMP_SECONDS = 20;
const CALLS_PER_MINUTE = 1_000;
const WEBHOOK_EVERY_MS = 3_000;

/** A stream client on `base`: when an event first carries each conversation id. */
function followStream(base: string) {
  const carried = arrivals(15_000);
  const stream = openChangeStream(base, (data, at) => {
    for (const match of data.matchAll(/"conversation_id":"(bench-surge-[^"]+)"/g)) carried.mark(match[1], at);
  }, { "x-forwarded-for": "198.51.100.20" });
  return { ...stream, arrival: carried.when };
}

/** The surge: an exercise of 10,000 calls over 10 exercise minutes, steady, at 1x (1,000 a minute); answers its id. */
async function startSurge(base: string): Promise<string> {
  const created = await fetch(`${base}/api/exercises`, {
    method: "POST",
    headers: { "content-type": "application/json", ...benchAuth },
    body: JSON.stringify({ scenario: "la_wildfire", shape: "steady", duration_minutes: 10, speed: 1, num_calls: CALLS_PER_MINUTE * 10, start: true, abandoned_share: 0.1 }),
  });
  if (!created.ok) throw new Error(`exercise answered ${created.status}: ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}

async function main(): Promise<void> {
  console.log(`load average before: ${loadavg().map((value) => value.toFixed(2)).join(" ")}`);
  await withScratchClient(server, async (client, url) => {
    if (IDLE_CALLS > 0) await seed(client, 1, IDLE_CALLS);
    await withTwoInstances(portA, url, async (a, b) => {
      const browser = await launchBenchBrowser();
      const stream = followStream(a.base);
      try {
        const { context, page } = await newDashboardPage(browser, a.base);
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        const apiRequests = new Map<string, string>();
        const requestsByPath = new Map<string, number>();
        const bytesByPath = new Map<string, number>();
        let counting = false;
        const count = (requestId: string, bytes: number) => {
          const path = apiRequests.get(requestId);
          if (!counting || path === undefined) return;
          bytesByPath.set(path, (bytesByPath.get(path) ?? 0) + bytes);
        };
        cdp.on("Network.requestWillBeSent", (event) => {
          const { pathname } = new URL(event.request.url);
          if (!pathname.startsWith("/api/")) return;
          apiRequests.set(event.requestId, pathname);
          if (counting) requestsByPath.set(pathname, (requestsByPath.get(pathname) ?? 0) + 1);
        });
        cdp.on("Network.dataReceived", (event) => count(event.requestId, event.encodedDataLength));
        cdp.on("Network.responseReceived", (event) => count(event.requestId, event.response.encodedDataLength ?? 0));

        await page.goto(a.base, { waitUntil: "commit" });
        await page.getByTestId("feed-mode").filter({ hasText: "Live" }).waitFor({ timeout: 60_000 });
        await stream.connected;

        const exerciseId = IDLE_CALLS > 0 ? undefined : await startSurge(a.base);
        await page.waitForTimeout(RAMP_SECONDS * 1000);

        const callsAt = async () => Number(((await (await fetch(`${a.base}/api/calls?limit=1&table_name=exercise-calls`, { headers: benchAuth })).json()) as { pagination: { total: number } }).pagination.total);
        const callsBefore = await callsAt();
        counting = true;
        const started = Date.now();
        const latencies: number[] = [];
        let posted = 0;
        if (IDLE_CALLS > 0) await page.waitForTimeout(SURGE_SECONDS * 1000);
        while (exerciseId && Date.now() - started < SURGE_SECONDS * 1000) {
          const id = `bench-surge-${posted++}`;
          const sent = Date.now();
          await postCall(b.base, id);
          latencies.push(((await stream.arrival(id)) ?? Number.NaN) - sent);
          await page.waitForTimeout(Math.max(0, WEBHOOK_EVERY_MS - (Date.now() - sent)));
        }
        counting = false;
        const seconds = (Date.now() - started) / 1000;
        const callsDuring = (await callsAt()) - callsBefore;
        const totalBytes = [...bytesByPath.values()].reduce((sum, bytes) => sum + bytes, 0);
        const sorted = latencies.filter(Number.isFinite).sort((x, y) => x - y);
        console.log(
          JSON.stringify(
            {
              ...(IDLE_CALLS > 0 ? { idle_with_stored_calls: IDLE_CALLS } : {}),
              surge_seconds: Math.round(seconds),
              exercise_calls_per_minute: Math.round((callsDuring * 60) / seconds),
              dashboard_api_bytes_per_minute: Math.round((totalBytes * 60) / seconds),
              by_path_bytes_per_minute: Object.fromEntries([...bytesByPath].map(([path, bytes]) => [path, Math.round((bytes * 60) / seconds)])),
              requests_per_minute: Object.fromEntries([...requestsByPath].map(([path, n]) => [path, Math.round((n * 60) / seconds)])),
              webhook_on_other_instance_stream_ms: {
                n: latencies.length,
                missed: latencies.length - sorted.length,
                p50: percentile(sorted, 0.5),
                p95: percentile(sorted, 0.95),
                max: sorted.at(-1),
              },
              // What the dashboard showed at the end, or why it showed nothing (the figures above stand either way).
              shown_open: await page
                .locator(".queue-total")
                .textContent({ timeout: 5_000 })
                .catch((error: Error) => `not shown at ${page.url()}: ${error.message.split("\n")[0]}`),
            },
            null,
            2,
          ),
        );
        // The page as it ended (a renderer too busy to paint cannot be photographed: said, not thrown).
        await page.screenshot({ path: "test-results/bench-dashboard-surge.png", timeout: 10_000 }).catch((error: Error) => console.log(`no screenshot: ${error.message.split("\n")[0]}`));
        if (exerciseId) await fetch(`${a.base}/api/exercises/${exerciseId}/stop`, { method: "POST", headers: benchAuth }).catch(() => undefined);
        await context.close();
      } finally {
        stream.close();
        await browser.close();
      }
    });
  });
  console.log(`load average after: ${loadavg().map((value) => value.toFixed(2)).join(" ")}`);
}

void main();
