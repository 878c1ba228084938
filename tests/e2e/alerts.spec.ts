import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { specCallEvent } from "../../lib/voice-platforms/elevenlabs/sample-events";
import { callStatus, CLOSED_AS_HANDLED, expectNoAxeViolations, incidentOf, openDashboard, recordTones, simulateCalls, tilesOffline } from "./dashboard-helpers";

/**
 * Alerts from the server, not from the rows drawn (docs/dashboard.md, "Alerts" and "Incident
 * queue"): a new critical incident ranked below any fixed page of the queue enters every
 * dashboard's "New" strip with a tone; one dispatcher's acknowledgement clears it on another's
 * screen; the queue's compact rows fit at least 12 in view at 1440 x 900.
 */
test.describe.configure({ mode: "serial" });

const password = "a long enough password";
const LATE = `e2e-alert-late-${Date.now()}`;

/** Where the incident ranks in the server's queue (priority order, every page read). */
async function rankOf(request: APIRequestContext, incidentId: string): Promise<number> {
  let rank = 0;
  for (let after: string | null = ""; after !== null; ) {
    const page = (await (await request.get(`/api/live/incidents?limit=500${after ? `&after=${encodeURIComponent(after)}` : ""}`)).json()) as {
      incidents: { id: string }[];
      next: string | null;
    };
    const at = page.incidents.findIndex((incident) => incident.id === incidentId);
    if (at >= 0) return rank + at;
    rank += page.incidents.length;
    after = page.next;
  }
  return -1;
}

/** Real critical calls received an hour before the late one, each at an address of its own: the queue lists real incidents first. */
const EARLIER = Array.from({ length: 110 }, (_, index) => `e2e-alert-earlier-${Date.now()}-${index}`);

test.beforeAll(async ({ request }) => {
  // Open incidents, a third of them critical, all received before the late call: it ranks below them.
  for (const [index, scenario] of ["la_wildfire", "earthquake_sf"].entries()) {
    await simulateCalls(request, { scenario, num_calls: 200, table_name: "e2e-alerts", seed: 5100 + index, duplicate_share: 0 });
  }
  for (const [index, id] of EARLIER.entries()) {
    const event = specCallEvent(id, { location: `e2e earlier alert, ${index + 1} Lantern Row`, eventTimestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
  }
});

test.afterAll(async ({ request }, testInfo) => {
  // A close each for some 500 incidents, one at a time (each kept with its disposition).
  testInfo.setTimeout(180_000);
  // Later specs find their own calls near the top: this spec's load leaves the queue.
  const page = (await (await request.get("/api/calls?table_name=e2e-alerts&limit=1000")).json()) as { calls: { incident_id: string }[] };
  const earlier = await Promise.all(EARLIER.map((id) => incidentOf(request, id)));
  const incidents = new Set([...page.calls.map((call) => call.incident_id), ...earlier, await incidentOf(request, LATE)]);
  for (const id of incidents) await request.patch(`/api/incidents/${id}`, { data: CLOSED_AS_HANDLED });
});

test("a new critical incident ranked below any fixed page sounds and enters the New strip; another dispatcher sees it acknowledged", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const dispatcher = { name: "Dana Dispatcher", email: `dana-${Date.now()}@centre.example.org`, password, role: "dispatcher" };
  expect((await request.post("/api/users", { data: dispatcher })).status()).toBe(201);
  const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const watcher = await other.newPage();
    expect((await watcher.request.post("/api/session", { data: { email: dispatcher.email, password } })).status()).toBe(200);
    const tones = await recordTones(page);
    for (const screen of [page, watcher]) {
      await tilesOffline(screen);
      await openDashboard(screen);
      await expect(screen.getByTestId("feed-mode")).toHaveText("Live");
    }

    const event = specCallEvent(LATE, { location: "e2e late alert, 9 Lantern Row", eventTimestamp: Math.floor(Date.now() / 1000) });
    expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
    const incidentId = await incidentOf(request, LATE);
    expect(await rankOf(request, incidentId)).toBeGreaterThan(100);

    // On both screens, from the server's alerts: in the strip, and a tone on the first.
    const entry = page.locator(`.alert-strip .alert-entry[data-incident-id="${incidentId}"]`);
    const watched = watcher.locator(`.alert-strip .alert-entry[data-incident-id="${incidentId}"]`);
    await expect(entry).toBeVisible({ timeout: 15_000 });
    await expect(watched).toBeVisible({ timeout: 15_000 });
    await expect(entry).toContainText("New");
    await expect.poll(tones).toBe(2);
    await expectNoAxeViolations(page);

    // Three keys: `l` focuses the latest alert (this one, the newest), Enter opens its incident, `a` acknowledges it for everyone.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("l");
    await expect(entry.locator(".alert-open")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator(`.incident-detail[data-incident-id="${incidentId}"]`)).toBeFocused();
    await page.keyboard.press("a");
    await expect(entry).toHaveCount(0, { timeout: 15_000 });
    await expect(watched).toHaveCount(0, { timeout: 15_000 });

    const audit = (await (await request.get("/api/audit?action=incident.acknowledged&limit=5")).json()) as {
      events: { target: { id: string } | null; actor: { name: string } }[];
    };
    expect(audit.events.some((row) => row.target?.id === incidentId)).toBe(true);
    // The earlier real calls have served: the queue's later tests see the simulations as before.
    for (const id of EARLIER) await request.patch(`/api/incidents/${await incidentOf(request, id)}`, { data: CLOSED_AS_HANDLED });
  } finally {
    await other.close();
  }
});

test.describe("at 1440 x 900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("compact rows: at least 12 incidents in view in the queue", async ({ page }) => {
    await tilesOffline(page);
    await openDashboard(page);
    await expect(page.locator(".queue-list .queue-item").first()).toBeVisible();
    expect(await rowsInView(page)).toBeGreaterThanOrEqual(12);
    await expectNoAxeViolations(page);
  });

  test("comfortable rows add the latest call's summary under the address, the browser remembers the choice, and compact comes back", async ({ page, request }) => {
    // Two page loads and an axe scan: on a busy machine more than the default 30 s.
    test.setTimeout(90_000);
    await tilesOffline(page);
    await openDashboard(page);
    const row = page.locator(".section-waiting .queue-item").first();
    await expect(row).toBeVisible();
    await expect(page.getByTestId("queue-rows")).toHaveValue("compact");
    await expect(page.locator(".queue-summary")).toHaveCount(0);
    const compactHeight = (await row.boundingBox())!.height;

    await page.getByTestId("queue-rows").selectOption("comfortable");
    // The row's latest call, as the server has it.
    const first = page.locator(`.section-waiting .queue-item[data-incident-id="${await row.getAttribute("data-incident-id")}"]`);
    const latest = (await callStatus(request, (await first.getAttribute("data-latest-call-id"))!)) as unknown as { summary: string };
    await expect(first.locator(".queue-summary")).toHaveText(latest.summary || "No summary.");
    // Two lines: the summary sits below the address, not beside it.
    const address = (await first.locator(".queue-location").boundingBox())!;
    expect((await first.locator(".queue-summary").boundingBox())!.y).toBeGreaterThanOrEqual(address.y + address.height - 1);
    expect((await first.boundingBox())!.height).toBeGreaterThan(compactHeight);
    await expectNoAxeViolations(page);

    await page.reload();
    await expect(page.getByTestId("queue-rows")).toHaveValue("comfortable");
    await expect(page.locator(".section-waiting .queue-item .queue-summary").first()).toBeVisible();

    await page.getByTestId("queue-rows").selectOption("compact");
    await expect(page.locator(".queue-summary")).toHaveCount(0);
    expect(await rowsInView(page)).toBeGreaterThanOrEqual(12);
  });
});

/** Queue rows wholly inside their section's scroller and the window. */
function rowsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll(".queue-item")];
    return rows.filter((row) => {
      const box = row.getBoundingClientRect();
      const scroller = row.closest(".queue-scroll")!.getBoundingClientRect();
      return box.height > 0 && box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1 && box.bottom <= window.innerHeight;
    }).length;
  });
}

test("a call stamped 1970 by its platform is not first in the queue, and its detail says why", async ({ page, request }) => {
  const id = `e2e-epoch-${Date.now()}`;
  const event = specCallEvent(id, { location: "e2e epoch call, 1 Unix Way", eventTimestamp: 0 });
  expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
  const incidentId = await incidentOf(request, id);
  await tilesOffline(page);
  await openDashboard(page);
  const first = page.locator(".section-waiting .queue-item").first();
  await expect(first).toBeVisible();
  expect(await first.getAttribute("data-incident-id")).not.toBe(incidentId);
  const queue = (await (await request.get("/api/live/incidents?section=waiting&limit=1")).json()) as { incidents: { id: string }[] };
  expect(queue.incidents[0].id).not.toBe(incidentId);
  // Its own detail keeps the platform's time and says the queue uses the receipt.
  await page.getByTestId("queue-sort").selectOption("received");
  const row = page.locator(`.queue-item[data-incident-id="${incidentId}"]`);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row.locator(".waiting")).not.toContainText(/\d{3,} h/);
  await row.locator(".queue-title").click();
  await page.locator(`.incident-call[data-call-id="${id}"]`).getByRole("button", { name: "Open call" }).click();
  await expect(page.locator(".call-detail")).toContainText("implausible");
  await request.patch(`/api/incidents/${incidentId}`, { data: CLOSED_AS_HANDLED });
});

test("an exercise's calls leave the default counts when it ends", async ({ page, request }) => {
  const openIncidents = async () => ((await (await request.get("/api/live/board")).json()) as { open_incidents: number }).open_incidents;
  const shown = async () => Number((await page.getByTestId("incident-total").textContent())!.replace(/\D/g, ""));
  await tilesOffline(page);
  await openDashboard(page);
  const before = await openIncidents();
  await expect.poll(shown).toBe(before);
  const created = await request.post("/api/exercises", {
    data: { scenario: "nashville_tornado", duration_minutes: 10, num_calls: 30, speed: 60, start: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect.poll(openIncidents, { timeout: 30_000 }).toBeGreaterThan(before);
  await expect.poll(shown, { timeout: 15_000 }).toBeGreaterThan(before);
  expect((await request.post(`/api/exercises/${id}/stop`)).status()).toBe(200);
  // Closed by the exercise's end: the default counts and the queue are as before, on the server and on screen.
  expect(await openIncidents()).toBe(before);
  await expect.poll(shown, { timeout: 15_000 }).toBe(before);
});
