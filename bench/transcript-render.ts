/**
 * How long the call detail takes to show a 500-turn transcript in the browser (issue 28,
 * acceptance 3: < 200 ms), on the production server (`npm run build` first) and Chromium:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/transcript-render.ts
 *
 * Two calls are posted to the webhook as the platform sends them: one of 500 turns, one of 3 (the
 * comparison). Each run opens a fresh dashboard (a new page of one signed-in context), clicks the call's row in the call history and
 * reads in the page (performance.now() of the page): the click, the end of the detail's response
 * (resource timing of GET /api/calls/{id}) and the first frame after the transcript's last turn is
 * in the DOM (a MutationObserver, then requestAnimationFrame + a task: the frame was painted).
 * "render" is response end to painted (React, layout, paint); "click to painted" adds the request.
 */
import { TILE_PATTERN } from "../tests/e2e/dashboard-helpers";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { percentile } from "./stats";
import { elevenLabsCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.BENCH_PORT ?? 3932);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const WORDS = "smoke fire window stairs neighbour kitchen door street corner breathing water basement roof car alarm".split(" ");

function turns(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    role: index % 2 === 0 ? "agent" : "user",
    // 8-30 words a turn, as real turns run.
    message: Array.from({ length: 8 + ((index * 7) % 23) }, (_, word) => WORDS[(index * 3 + word) % WORDS.length]).join(" ") + ".",
    time_in_call_secs: index * 3,
  }));
}

/** In the page: click time, and when the transcript's `expected` turns were first painted. */
const PROBE = `
  window.__marks = {};
  document.addEventListener("click", () => { window.__marks.click = performance.now(); }, true);
  new MutationObserver(() => {
    const list = document.querySelector('[data-testid="transcript"]');
    if (!list || window.__marks.seen || list.children.length < window.__expectedTurns) return;
    window.__marks.seen = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__marks.painted = performance.now(); }, 0));
  }).observe(document, { childList: true, subtree: true });
`;

async function post(base: string, id: string, count: number): Promise<void> {
  const event = elevenLabsCallEvent(id, { eventTimestamp: Math.floor(Date.now() / 1000) - 60 }) as { data: { transcript: unknown[] } };
  event.data.transcript = turns(count);
  const response = await fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(event),
  });
  if (response.status !== 200) throw new Error(`webhook: ${response.status} ${await response.text()}`);
  const stored = await fetch(`${base}/api/calls/${id}`, { headers: benchAuth });
  const detail = (await stored.json()) as { transcript: unknown[] };
  if (detail.transcript.length !== count) throw new Error(`${id}: ${detail.transcript.length} turns stored, ${count} sent`);
}

async function main(): Promise<void> {
  await withScratchClient(server, async (_client, url) => {
    const app = await startProductionServer(PORT, { DATABASE_URL: url });
    const browser = await launchBenchBrowser();
    try {
      const cases = [
        { id: `conv_render_500_${Date.now()}`, turns: 500 },
        { id: `conv_render_3_${Date.now()}`, turns: 3 },
      ];
      for (const entry of cases) await post(app.base, entry.id, entry.turns);
      console.log("| transcript | runs | render p50 ms | render max ms | click to painted p50 ms | max ms |");
      console.log("|---|---|---|---|---|---|");
      for (const entry of cases) {
        const render: number[] = [];
        const total: number[] = [];
        // One signed-in context (sign-in is limited per account), a new page (a new app) per run.
        const { context, page: first } = await newDashboardPage(browser, app.base);
        await context.addInitScript(`window.__expectedTurns = ${entry.turns};`);
        await context.addInitScript(PROBE);
        await context.route(TILE_PATTERN, (route) => route.abort("internetdisconnected"));
        await first.close();
        for (let run = 0; run < RUNS + 2; run++) {
          const page = await context.newPage();
          await page.goto(app.base);
          const row = page.locator(`.history-table tr[data-call-id="${entry.id}"] button`);
          await row.waitFor();
          await page.waitForLoadState("networkidle");
          await row.click();
          await page.waitForFunction(() => (window as unknown as { __marks: { painted?: number } }).__marks.painted !== undefined);
          const marks = await page.evaluate((id) => {
            const { click, painted } = (window as unknown as { __marks: { click: number; painted: number } }).__marks;
            const response = performance
              .getEntriesByType("resource")
              .filter((timing) => timing.name.endsWith(`/api/calls/${id}`))
              .at(-1) as PerformanceResourceTiming;
            return { click, painted, responseEnd: response.responseEnd };
          }, entry.id);
          if (run >= 2) {
            // The first runs warm the server's routes and the browser's caches.
            render.push(marks.painted - marks.responseEnd);
            total.push(marks.painted - marks.click);
          }
          await page.close();
        }
        await context.close();
        render.sort((a, b) => a - b);
        total.sort((a, b) => a - b);
        console.log(
          `| ${entry.turns} turns | ${render.length} | ${percentile(render, 0.5).toFixed(1)} | ${render.at(-1)!.toFixed(1)} | ${percentile(total, 0.5).toFixed(1)} | ${total.at(-1)!.toFixed(1)} |`,
        );
      }
    } finally {
      await browser.close();
      app.stop();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
