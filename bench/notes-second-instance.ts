/**
 * How soon a note one instance keeps shows on a dashboard served by another instance: two
 * production servers (`npm run build` first) over one database with 10,000 stored calls; Chromium
 * has instance B's dashboard open on the most urgent incident; each round posts a note to instance
 * A and times from A's answer to the note's text entering B's page (a MutationObserver reports it
 * to the bench, so the figure includes that report's own trip).
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/notes-second-instance.ts
 */
import { loadavg } from "node:os";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const ROUNDS = 30;
const GIVE_UP_MS = 30_000;

/** In the page: every note text that enters the DOM is reported once to `window.__noteSeen`. */
const NOTE_PROBE = `
  const reported = new Set();
  new MutationObserver(() => {
    for (const element of document.querySelectorAll(".note-text")) {
      const text = element.textContent;
      if (!reported.has(text)) {
        reported.add(text);
        window.__noteSeen(text);
      }
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

async function main(): Promise<void> {
  await withScratchClient(server, async (client, url) => {
    await seed(client, 1, 10_000);
    await client.query("VACUUM ANALYZE");
    const load = loadavg()[0];
    const env = { DATABASE_URL: url, TRUST_PROXY: "1" };
    const a = await startProductionServer(3950, env);
    const b = await startProductionServer(3951, env);
    const browser = await launchBenchBrowser();
    try {
      const { page } = await newDashboardPage(browser, b.base);
      const seen = new Map<string, number>();
      const waiters = new Map<string, () => void>();
      await page.exposeFunction("__noteSeen", (text: string) => {
        seen.set(text, performance.now());
        waiters.get(text)?.();
      });
      await page.addInitScript(NOTE_PROBE);
      await page.goto(b.base);
      const queue = (await (await fetch(`${b.base}/api/live/incidents?limit=1`, { headers: benchAuth })).json()) as { incidents: { id: string }[] };
      const incident = queue.incidents[0].id;
      await page.locator(`.queue-item[data-incident-id="${incident}"] .queue-title`).click();
      await page.locator(".incident-notes").getByLabel("Add a note").waitFor();
      await page.locator(".incident-notes .muted, .note-list").first().waitFor();

      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const text = `bench note ${round} at ${Date.now()}`;
        const shown = new Promise<void>((resolve) => waiters.set(text, resolve));
        const response = await fetch(`${a.base}/api/incidents/${incident}/notes`, {
          method: "POST",
          headers: { ...benchAuth, "content-type": "application/json" },
          body: JSON.stringify({ text }),
        });
        if (response.status !== 201) throw new Error(`note answered ${response.status}: ${await response.text()}`);
        const answered = performance.now();
        await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, GIVE_UP_MS))]);
        times.push(seen.has(text) ? Math.max(0, seen.get(text)! - answered) : Infinity);
        // Notes do not come every instant: a dispatcher's pace, and B's page settles.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const within = times.filter((ms) => ms <= 1_000).length;
      times.sort((x, y) => x - y);
      console.log(
        `notes from A on B's dashboard: ${within} of ${ROUNDS} within 1 s; p50 ${percentile(times, 0.5).toFixed(1)} ms, ` +
          `p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (load average ${load.toFixed(2)} before)`,
      );
    } finally {
      await browser.close();
      a.stop();
      b.stop();
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
