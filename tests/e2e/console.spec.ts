import { expect, test, type APIRequestContext } from "@playwright/test";
import { specCallEvent } from "../../lib/voice-platforms/elevenlabs/sample-events";
import { CLOSED_AS_HANDLED, expectNoAxeViolations, giveDispatchReason, incidentOf, openDashboard, queuedIncident, saveScreenshot, simulateCalls, tilesOffline } from "./dashboard-helpers";

/**
 * The dispatch console's layout and keys (docs/dashboard.md, "Layout" and "Keyboard"): the header
 * on one line from 1280 px, the incident beside the queue and focused, a call's location corrected
 * from a queue row by keyboard alone with the focus back on that row, no blank page below the
 * content, the audit table inside its panel, and a trainer's status actions on a training incident.
 */
test.describe.configure({ mode: "serial" });

// Places the embedded gazetteer knows (as in corrections.spec.ts).
const MISSION = "Mission District, San Francisco";
// Not the Marina, where corrections.spec.ts moves its call: two open incidents on one town centre
// point are drawn as one cluster there.
const CORRECTED_TO = "Financial District, San Francisco";
const REAL_CALL = `e2e-console-${Date.now()}`;
const password = "a long enough password";

/** A critical voice-agent call at the Mission District, received 20 hours ago (older than the simulations). */
async function postRealCall(request: APIRequestContext): Promise<void> {
  const event = specCallEvent(REAL_CALL, { location: MISSION, eventTimestamp: Math.floor(Date.now() / 1000) - 20 * 3600 });
  event.data.analysis.data_collection_results.severity.value = "Critical";
  const response = await request.post("/api/voiceagent-webhook", { data: event });
  expect(response.status(), await response.text()).toBe(200);
}

test.beforeAll(async ({ request }) => {
  // A realistic load: the four scenarios, enough incidents to fill and scroll the queue.
  for (const [index, scenario] of ["la_wildfire", "nashville_tornado", "earthquake_sf", "hurricane_florida"].entries()) {
    await simulateCalls(request, { scenario, num_calls: 60, table_name: "e2e-console", seed: 3400 + index, duplicate_share: 0.3 });
  }
  await postRealCall(request);
});

// The queue shows the most urgent incidents first: this spec's load leaves it, so later specs find their own calls in it.
test.afterAll(async ({ request }) => {
  const page = (await (await request.get("/api/calls?table_name=e2e-console&limit=1000")).json()) as { calls: { incident_id: string }[] };
  const incidents = new Set([...page.calls.map((call) => call.incident_id), await incidentOf(request, REAL_CALL)]);
  for (const id of incidents) await request.patch(`/api/incidents/${id}`, { data: CLOSED_AS_HANDLED });
});

test.describe("at 1280 x 800", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the header is one line and the page ends where its content ends", async ({ page }) => {
    await tilesOffline(page);
    await openDashboard(page);
    await expect(page.locator(".queue-list .queue-item").first()).toBeVisible();
    const layout = await page.evaluate(() => {
      const children = [...document.querySelectorAll(".top-bar > *")].map((element) => element.getBoundingClientRect());
      const main = document.querySelector("main")!.getBoundingClientRect();
      return {
        tops: children.map((box) => Math.round(box.top + box.height / 2)),
        pageHeight: document.documentElement.scrollHeight,
        contentBottom: Math.ceil(main.bottom + window.scrollY),
      };
    });
    // Every control of the header on the same line: their middles within a few pixels.
    expect(Math.max(...layout.tops) - Math.min(...layout.tops)).toBeLessThanOrEqual(6);
    // Screen-reader-only text inside the scrolling queue does not stretch the page below its content.
    expect(layout.pageHeight).toBeLessThanOrEqual(layout.contentBottom + 2);
    await expectNoAxeViolations(page);
  });

  test("by keyboard alone, from a focused queue row: the incident opens beside the queue, focused; c corrects its call's location; the focus returns to the row", async ({ page, request }) => {
    await tilesOffline(page);
    await openDashboard(page);
    const { item } = await queuedIncident(page, request, REAL_CALL);
    const row = item.locator(".queue-title");
    await row.focus();
    let keys = 0;
    const press = async (key: string) => {
      keys += 1;
      await page.keyboard.press(key);
    };

    await press("Enter");
    const detail = page.locator(".incident-detail");
    await expect(detail).toBeFocused();
    await expect(detail.locator(".detail-headline")).toBeVisible();
    // Beside the queue and in view: its top inside the viewport, level with the queue's.
    const [detailBox, queueBox] = [await detail.boundingBox(), await page.locator(".queue").boundingBox()];
    expect(detailBox!.y).toBeGreaterThanOrEqual(0);
    expect(detailBox!.y + 100).toBeLessThanOrEqual(800);
    expect(detailBox!.x).toBeGreaterThan(queueBox!.x + queueBox!.width - 1);
    expect(Math.abs(detailBox!.y - queueBox!.y)).toBeLessThanOrEqual(4);

    await press("c");
    const location = page.locator('.call-detail input[name="location"]');
    await expect(location).toBeFocused();
    // The incident's first call (this test's call, unless earlier runs' calls joined its incident).
    const callId = (await page.locator(".call-detail h3").textContent())!.replace(/^Call /, "");
    await expectNoAxeViolations(page);
    // The field's text is selected: typing replaces it (the typed address is not counted as keys).
    await page.keyboard.type(CORRECTED_TO);
    await press("Enter");
    await expect.poll(async () => ((await (await request.get(`/api/calls/${callId}`)).json()) as { location: string }).location).toBe(CORRECTED_TO);
    // Back on the row it came from, never on the page body.
    await expect(row).toBeFocused();
    expect(keys).toBeLessThanOrEqual(8);
  });

  test("the merge menu offers only incidents of the incident's own kind, and stays inside its panel", async ({ page, request }) => {
    await tilesOffline(page);
    await openDashboard(page);
    const { incidentId: realIncident } = await queuedIncident(page, request, REAL_CALL);
    // The first training incident waiting: the first row of the training section, below every real one.
    const shown = (await (await request.get("/api/live/incidents?section=waiting&kind=training&limit=1")).json()) as { incidents: { id: string }[] };
    const trainingId = shown.incidents[0].id;
    await page.getByTestId("queue-sort").selectOption("priority");
    const training = page.locator(`.section-waiting.kind-training .queue-item[data-incident-id="${trainingId}"]`);
    await training.locator(".queue-title").click();
    const detail = page.locator(".incident-detail");
    const menu = detail.locator('select[name="merge-with"]');
    await expect(menu).toBeVisible();
    const offered = await menu.locator("option:not([value=''])").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).not.toContain(realIncident);
    for (const id of offered.slice(0, 5)) {
      expect(((await (await request.get(`/api/incidents/${id}`)).json()) as { training: boolean }).training).toBe(true);
    }
    const [menuBox, panelBox] = [await menu.boundingBox(), await detail.boundingBox()];
    expect(menuBox!.x + menuBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
  });

  test("the audit table stays inside its panel", async ({ page, request }) => {
    // A person with a long name: a wide "after" value in the trail.
    const created = await request.post("/api/users", {
      data: { name: "Maximiliana Alexandrina Featherstonehaugh-Cholmondeley", email: `long-${Date.now()}@centre.example.org`, password, role: "viewer" },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.goto("/admin/audit");
    await expect(page.locator("tbody tr").first()).toBeVisible();
    const [table, panel] = [await page.locator("section.panel table").boundingBox(), await page.locator("section.panel").boundingBox()];
    expect(table!.x + table!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await expectNoAxeViolations(page);
  });
});

test("a trainer sees the status actions of a simulated incident, which the server lets them move", async ({ browser, request }) => {
  const trainer = { name: "Tess Trainer", email: `tess-${Date.now()}@centre.example.org`, password, role: "trainer" };
  expect((await request.post("/api/users", { data: trainer })).status()).toBe(201);
  // A training incident among the waiting section's first rows (the simulations above).
  const queue = (await (await request.get("/api/live/incidents?section=waiting&limit=12")).json()) as { incidents: { id: string; training: boolean; status: string }[] };
  const incidentId = queue.incidents.find((incident) => incident.training && incident.status === "active")!.id;
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  try {
    const signedIn = await page.request.post("/api/session", { data: { email: trainer.email, password } });
    expect(signedIn.status()).toBe(200);
    await tilesOffline(page);
    await openDashboard(page);
    await page.locator(`.queue-item[data-incident-id="${incidentId}"] .queue-title`).click();
    const actions = page.locator(`.incident-detail[data-incident-id="${incidentId}"] > .status-actions`);
    await expect(actions.getByRole("button", { name: "Dispatched" })).toBeVisible();
    await actions.getByRole("button", { name: "Dispatched" }).click();
    // No unit on it: the dispatch says why (docs/dashboard.md, "Dispatch reason, disposition, undo").
    await giveDispatchReason(page, "Drill: the trainer plays the units");
    await expect.poll(async () => ((await (await request.get(`/api/incidents/${incidentId}`)).json()) as { status: string }).status).toBe("dispatched");
  } finally {
    await context.close();
  }
});

for (const [width, height] of [[1280, 800], [1440, 900], [1920, 1080]] as const) {
  test(`the dashboard at ${width} x ${height} with an incident open and its popup shown passes axe`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    await tilesOffline(page);
    await openDashboard(page);
    const { item } = await queuedIncident(page, request, REAL_CALL);
    await item.locator(".queue-title").click();
    await expect(page.locator(".incident-detail .detail-headline")).toBeVisible();
    // The map flies to the incident, then its popup fades in: read its contrast once it is opaque.
    await expect(page.locator(".leaflet-popup")).toHaveCSS("opacity", "1", { timeout: 15_000 });
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `dashboard-${width}x${height}`);
  });
}
