/**
 * Alerts across instances (issue 34, acceptance 1): two production instances over one scratch
 * database holding 5,000 open incidents; the dashboard open on instance A in Chromium (1440 x 900);
 * 100 new critical webhook calls posted to instance B, one every BENCH_ALERT_EVERY_MS (default
 * 2,000), each with its own street address and a platform time somewhere in the seeded incidents'
 * eight hours, so each ranks anywhere among A's waiting incidents:
 *
 *   npm run build && BENCH_PORT=3105 npx tsx bench/alert-latency.ts
 *
 * For each call, from the moment its post to B starts: when A's page played the alert tone and
 * when its "New" strip first held the call's incident (a MutationObserver in the page; both on
 * this machine's clock); then, from a page with nothing focused, the keys that reach it: `l`
 * (focus lands on its entry), Enter (its incident opens, focused), `a` (acknowledged: it leaves
 * the strip). At the end, each incident's rank in A's waiting section (urgency order), read a
 * page at a time. BENCH_DATABASE_URL names the server the scratch database is made on.
 */
import { loadavg } from "node:os";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { postCall } from "./post-call";
import { benchAuth, withTwoInstances } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seedIncidents } from "./seed-incidents";
import { latencySummary } from "./stats";
import { recordTones } from "../tests/e2e/dashboard-helpers";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const portA = Number(process.env.BENCH_PORT ?? 3105);
const OPEN_INCIDENTS = 5_000;
const CALLS = Number(process.env.BENCH_ALERT_CALLS ?? 100);
const EVERY_MS = Number(process.env.BENCH_ALERT_EVERY_MS ?? 2_000);
/** The seeded incidents' first calls span this long before now (6 s apart). */
const SEEDED_SPAN_MS = OPEN_INCIDENTS * 6_000;
/** How long a call may take to reach A's strip before it counts as missed. */
const GIVE_UP_MS = 15_000;

/** In the page: when each incident first entered the "New" strip, as `window.__alertSeen[id]` (Date.now()). */
const ALERT_PROBE = `
  window.__alertSeen = {};
  new MutationObserver(() => {
    for (const entry of document.querySelectorAll(".alert-strip .alert-entry.is-alerting[data-incident-id]")) {
      window.__alertSeen[entry.dataset.incidentId] ??= Date.now();
    }
  }).observe(document, { childList: true, subtree: true });
`;

interface Outcome {
  incident: string;
  entryMs: number | null;
  toneMs: number | null;
  keys: { focused: boolean; opened: boolean; acknowledged: boolean };
}

async function main(): Promise<void> {
  console.log(`load average before: ${loadavg().map((value) => value.toFixed(2)).join(" ")}`);
  await withScratchClient(server, async (client, url) => {
    await seedIncidents(client, 0, OPEN_INCIDENTS - 1, 1);
    await withTwoInstances(portA, url, async (a, b) => {
      const browser = await launchBenchBrowser();
      try {
        const { page } = await newDashboardPage(browser, a.base);
        await recordTones(page);
        // A script error in the page would stop it alerting: say so rather than report missed alerts only.
        page.on("pageerror", (error) => console.log(`page error: ${error.message}`));
        await page.addInitScript(ALERT_PROBE);
        await page.goto(a.base, { waitUntil: "commit" });
        await page.getByTestId("feed-mode").filter({ hasText: "Live" }).waitFor({ timeout: 60_000 });
        await page.locator(".queue-total").waitFor({ timeout: 60_000 });

        const outcomes: Outcome[] = [];
        const runStarted = Date.now();
        for (let index = 0; index < CALLS; index++) {
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, runStarted + index * EVERY_MS - Date.now())));
          const id = `bench-alert-${runStarted.toString(36)}-${index}`;
          // Spread over the seeded hours: the queue orders a plausible platform time as sent.
          const at = Date.now() - Math.round(((index * 37) % CALLS) / CALLS * SEEDED_SPAN_MS);
          const postedAt = Date.now();
          await postCall(b.base, id, `${100 + index * 2} Lantern Row, Springfield, Illinois`, at);
          const call = (await (await fetch(`${b.base}/api/calls/${id}`, { headers: benchAuth })).json()) as { incident_id: string };
          const incident = call.incident_id;
          const seen = await page
            .waitForFunction((wanted) => (window as unknown as { __alertSeen: Record<string, number> }).__alertSeen[wanted], incident, { timeout: GIVE_UP_MS, polling: 50 })
            .then((handle) => handle.jsonValue() as Promise<number>)
            .catch(() => null);
          const tones = await page.evaluate(() => (window as unknown as { __noteTimes: number[] }).__noteTimes);
          const tone = tones.find((time) => time >= postedAt);
          // The keys, from a page with nothing focused.
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await page.keyboard.press("l");
          const focused = await page.evaluate((wanted) => document.activeElement?.closest<HTMLElement>(".alert-entry")?.dataset.incidentId === wanted, incident);
          await page.keyboard.press("Enter");
          const opened = await page
            .waitForFunction((wanted) => document.activeElement?.closest<HTMLElement>(".incident-detail")?.dataset.incidentId === wanted, incident, { timeout: 5_000 })
            .then(() => true)
            .catch(() => false);
          await page.keyboard.press("a");
          const acknowledged = await page
            .locator(`.alert-strip .alert-entry[data-incident-id="${incident}"]`)
            .waitFor({ state: "detached", timeout: 5_000 })
            .then(() => true)
            .catch(() => false);
          outcomes.push({ incident, entryMs: seen === null ? null : seen - postedAt, toneMs: tone === undefined ? null : tone - postedAt, keys: { focused, opened, acknowledged } });
        }

        // Each incident's rank in A's waiting section, in urgency order (1 = first).
        const rankOf = new Map<string, number>();
        let after: string | null = null;
        let rank = 0;
        do {
          const search: string = `section=waiting&limit=500${after ? `&after=${encodeURIComponent(after)}` : ""}`;
          const pageOfQueue = (await (await fetch(`${a.base}/api/live/incidents?${search}`, { headers: benchAuth })).json()) as { incidents: { id: string }[]; next: string | null };
          for (const row of pageOfQueue.incidents) rankOf.set(row.id, ++rank);
          after = pageOfQueue.next;
        } while (after);
        const ranks = outcomes.map((outcome) => rankOf.get(outcome.incident) ?? Number.NaN).sort((x, y) => x - y);

        console.log(
          JSON.stringify(
            {
              open_incidents_seeded: OPEN_INCIDENTS,
              waiting_at_end: rank,
              calls: CALLS,
              every_ms: EVERY_MS,
              new_entry_on_a: latencySummary(outcomes.map((outcome) => outcome.entryMs)),
              tone_on_a: latencySummary(outcomes.map((outcome) => outcome.toneMs)),
              keys: {
                l_focuses_it: outcomes.filter((outcome) => outcome.keys.focused).length,
                enter_opens_it: outcomes.filter((outcome) => outcome.keys.opened).length,
                a_acknowledges_it: outcomes.filter((outcome) => outcome.keys.acknowledged).length,
              },
              rank_in_waiting: { min: ranks[0], p50: ranks[Math.floor(ranks.length / 2)], max: ranks.at(-1) },
              load_average_after: loadavg().map((value) => Number(value.toFixed(2))),
            },
            null,
            2,
          ),
        );
      } finally {
        await browser.close();
      }
    });
  });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
