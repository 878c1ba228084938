import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { specCallEvent } from "../../lib/voice-platforms/elevenlabs/sample-events";
import { expectNoAxeViolations, incidentOf, openDashboard, queuedIncident, saveScreenshot, showLatestFirst, simulateCalls, tilesOffline } from "./dashboard-helpers";

/**
 * One dispatch position on one screen (issue 51 item 1, acceptance 1; docs/dashboard.md, "Layout"):
 * with 240 open incidents and 25 units, the queue (12 rows or more), the open incident, the unit
 * board (15 units or more) and the map all in the window at 1440 x 900 and 1920 x 1080, and no page
 * scroll; history and training one key away over the incident and map, never over the queue; panel
 * sizes kept per person; a 47-character address whole in its compact row (issue 52 acceptance 5).
 */
const RUN = Date.now().toString(36);
const OPEN_INCIDENTS = 240;
const UNITS = 25;
const UNIT_TYPES = ["engine", "ambulance", "ladder", "patrol", "rescue"] as const;

async function openIncidents(request: APIRequestContext): Promise<number> {
  return ((await (await request.get("/api/live/board")).json()) as { open_incidents: number }).open_incidents;
}

/** At least 240 open incidents (this run's simulations top up what other specs left) and 25 units. */
async function seed(request: APIRequestContext): Promise<void> {
  for (let batch = 0; batch < 6 && (await openIncidents(request)) < OPEN_INCIDENTS; batch++) {
    await simulateCalls(request, { scenario: "hurricane_florida", num_calls: 100, table_name: `e2e-layout-${RUN}`, seed: 5700 + batch, duplicate_share: 0 });
  }
  // Grouping settles a moment after the calls are stored.
  await expect.poll(() => openIncidents(request), { timeout: 30_000 }).toBeGreaterThanOrEqual(OPEN_INCIDENTS);
  const roster = ((await (await request.get("/api/units")).json()) as { units: unknown[] }).units.length;
  for (let index = roster; index < UNITS; index++) {
    const type = UNIT_TYPES[index % UNIT_TYPES.length];
    const created = await request.post("/api/units", {
      data: { call_sign: `L${index}-${RUN}`, type, station: `Station ${1 + (index % 5)}`, station_latitude: 26.71 + index / 1000, station_longitude: -80.06 },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
}

/** How much of each part of the position is inside the window. */
function measure(page: Page) {
  return page.evaluate(() => {
    const inWindow = (box: DOMRect) => box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight + 1 && box.right <= window.innerWidth + 1;
    /** Rows wholly inside their own scrolling panel and the window. */
    const rowsInView = (rows: string, scroller: string) =>
      [...document.querySelectorAll(rows)].filter((row) => {
        const box = row.getBoundingClientRect();
        const frame = row.closest(scroller)!.getBoundingClientRect();
        return box.height > 0 && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1 && inWindow(box);
      }).length;
    const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
    return {
      pageHeight: document.documentElement.scrollHeight,
      windowHeight: window.innerHeight,
      queueRows: rowsInView(".section-waiting .queue-item", ".queue-scroll"),
      unitRows: rowsInView(".unit-row", ".units-frame"),
      incident: inWindow(box(".incident-detail")),
      incidentHeadline: inWindow(box(".incident-detail .detail-headline")),
      map: inWindow(box(".map-panel .map-frame")),
      mapSize: { width: box(".map-panel .map-frame").width, height: box(".map-panel .map-frame").height },
    };
  });
}

test.describe("the dispatch position on one screen", () => {
  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    await seed(request);
  });

  for (const [width, height] of [[1440, 900], [1920, 1080]] as const) {
    test(`at ${width} x ${height}: queue, open incident, unit board and map in view at once, no page scroll`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height });
      await tilesOffline(page);
      await openDashboard(page);
      await expect(page.locator(".section-waiting .queue-item").nth(11)).toBeVisible();
      await expect(page.locator(".unit-row").nth(UNITS - 1)).toBeAttached();
      // With no incident open, the middle column says how to open one.
      await expect(page.locator(".incident-slot")).toContainText("No incident open");
      // An incident at a street address (a town centre's would fly the map to an empty field).
      const atAddress = page.locator(".section-waiting .queue-item").filter({ has: page.locator(".queue-location", { hasText: /^\d+ / }) });
      await atAddress.first().locator(".queue-title").click();
      await expect(page.locator(".incident-detail .detail-headline")).toBeVisible();

      const seen = await measure(page);
      expect(seen.pageHeight, "the page does not scroll").toBeLessThanOrEqual(seen.windowHeight);
      expect(seen.unitRows).toBeGreaterThanOrEqual(15);
      expect(seen.incident && seen.incidentHeadline, "the open incident is in the window").toBe(true);
      expect(seen.map, "the map is in the window").toBe(true);
      // A map to work on, not a sliver.
      expect(seen.mapSize.width).toBeGreaterThanOrEqual(400);
      expect(seen.mapSize.height).toBeGreaterThanOrEqual(250);
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `layout-${width}x${height}`);
    });
  }

  // Issue 51 acceptance 1: at least 12 queue rows in view beside the open incident, with real
  // incidents waiting above the 240 training ones, both kinds' sections and alert strips shown
  // (their chrome one thin line each: docs/dashboard.md, "Layout").
  for (const [width, height] of [[1440, 900], [1920, 1080]] as const) {
    test(`at ${width} x ${height}: at least 12 queue rows in view beside the open incident, real and training sections shown`, async ({ page, request }) => {
      test.setTimeout(90_000);
      for (const [index, street] of ["Clematis Street", "Okeechobee Boulevard"].entries()) {
        const id = `e2e-layout-rows-${width}-${index}-${RUN}`;
        const event = specCallEvent(id, { location: `${400 + index} ${street}, West Palm Beach, FL`, eventTimestamp: Math.floor(Date.now() / 1000) });
        expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
      }
      await page.setViewportSize({ width, height });
      await tilesOffline(page);
      await openDashboard(page);
      await expect(page.locator(".section-waiting.kind-real .queue-item").first()).toBeVisible();
      await expect(page.locator(".section-waiting.kind-training .queue-item").first()).toBeVisible();
      await expect(page.getByTestId("alert-strip")).toBeVisible();
      await page.locator(".section-waiting .queue-item .queue-title").first().click();
      await expect(page.locator(".incident-detail .detail-headline")).toBeVisible();
      const seen = await measure(page);
      expect(seen.pageHeight, "the page does not scroll").toBeLessThanOrEqual(seen.windowHeight);
      expect(seen.queueRows).toBeGreaterThanOrEqual(12);
    });
  }

  test.describe("at 1440 x 900", () => {
    test.use({ viewport: { width: 1440, height: 900 } });

    test("a 47-character address is whole in its compact row, and the type too, with an incident open", async ({ page, request }) => {
      test.setTimeout(90_000);
      const house = 1000 + (Date.now() % 9000);
      const address = `${house} W Seabreeze Boulevard, West Palm Beach, FL`;
      expect(address).toHaveLength(47);
      const id = `e2e-layout-address-${RUN}`;
      const posted = await request.post("/api/voiceagent-webhook", { data: specCallEvent(id, { location: address, eventTimestamp: Math.floor(Date.now() / 1000) }) });
      expect(posted.status()).toBe(200);
      await tilesOffline(page);
      await openDashboard(page);
      await expect(page.getByTestId("queue-rows")).toHaveValue("compact");
      // Another incident open beside the queue: the queue at its usual width.
      await page.locator(".section-waiting .queue-item .queue-title").first().click();
      await expect(page.locator(".incident-detail .detail-headline")).toBeVisible();
      // The latest received first: this call's incident heads the waiting section.
      await showLatestFirst(page);
      const item = page.locator(`.section-waiting .queue-item[data-incident-id="${await incidentOf(request, id)}"]`);
      await expect(item).toBeVisible({ timeout: 15_000 });
      const location = item.locator(".queue-location");
      await expect(location).toContainText(address);
      const fit = await item.evaluate((row) => {
        const whole = (element: Element) => element.scrollWidth <= element.clientWidth + 1;
        const inside = (inner: DOMRect, outer: DOMRect) =>
          inner.left >= outer.left - 1 && inner.right <= outer.right + 1 && inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
        const frame = row.getBoundingClientRect();
        const where = row.querySelector(".queue-location")!;
        const title = row.querySelector(".queue-title")!;
        return {
          address: whole(where) && inside(where.getBoundingClientRect(), frame),
          type: whole(title) && inside(title.getBoundingClientRect(), frame),
          // Too long to sit beside the type, callers and wait in this queue: on a line of its own below them.
          secondLine: row.classList.contains("is-wrapped") && where.getBoundingClientRect().top >= title.getBoundingClientRect().bottom - 1,
        };
      });
      expect(fit.address, "the address is whole inside its row").toBe(true);
      expect(fit.type, "the type is whole inside its row").toBe(true);
      expect(fit.secondLine, "the address takes the row's second line").toBe(true);
      // Hovered, the row keeps its height: the list does not move under the pointer.
      const before = (await item.boundingBox())!.height;
      await item.hover();
      await expect(item.locator(".row-actions")).toBeVisible();
      expect((await item.boundingBox())!.height).toBe(before);
      await expectNoAxeViolations(page);
    });

    test("history and training open one key away over the incident and map, the queue still in view; Esc closes them", async ({ page }) => {
      // Three axe scans.
      test.setTimeout(90_000);
      await tilesOffline(page);
      await openDashboard(page);
      await expect(page.locator(".section-waiting .queue-item").first()).toBeVisible();
      await page.locator("body").press("h");
      const history = page.locator("#drawer-history");
      await expect(history).toBeVisible();
      await expect(history.locator(".history-table tbody tr").first()).toBeVisible();
      await expect(page.locator("[data-drawer-toggle=history]")).toHaveAttribute("aria-expanded", "true");
      // The focus is in the drawer, and the queue is not under it.
      expect(await page.evaluate(() => document.activeElement?.closest(".drawer")?.id)).toBe("drawer-history");
      const queueOnTop = await page.evaluate(() => {
        const queue = document.querySelector(".queue")!.getBoundingClientRect();
        return document.elementFromPoint(queue.left + queue.width / 2, queue.top + queue.height / 2)?.closest(".queue") !== null;
      });
      expect(queueOnTop).toBe(true);
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await expect(history).toBeHidden();
      await expect(page.locator("[data-drawer-toggle=history]")).toBeFocused();

      await page.locator("body").press("t");
      const training = page.locator("#drawer-training");
      await expect(training.getByRole("form", { name: "Start a training exercise" })).toBeVisible();
      await expect(training.getByRole("form", { name: "Run a disaster simulation" })).toBeVisible();
      await expectNoAxeViolations(page);
      // `/` goes straight to the history's search, closing training.
      await page.locator("body").press("/");
      await expect(page.locator('#drawer-history input[name="location"]')).toBeFocused();
      await expect(training).toBeHidden();
      await page.keyboard.press("Escape");
      await expect(history).toBeHidden();
    });

    test("the notice offering a move's undo passes axe with the incident open", async ({ page, request }) => {
      // One axe scan, the notice shown (issue 51 acceptance 4).
      test.setTimeout(90_000);
      const callId = `e2e-layout-undo-${RUN}`;
      const event = specCallEvent(callId, { location: `${RUN} Okeechobee Boulevard, West Palm Beach, FL`, eventTimestamp: Math.floor(Date.now() / 1000) });
      expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
      await tilesOffline(page);
      await openDashboard(page);
      const { incidentId, item } = await queuedIncident(page, request, callId);
      await item.locator(".queue-title").click();
      await expect(page.locator(`.incident-detail[data-incident-id="${incidentId}"]`)).toBeVisible();
      const free = page.locator("section.units .unit-row.unit-available").first();
      const unitId = (await free.getAttribute("data-unit-id"))!;
      await free.locator(".action-send-unit").click();
      const notice = page.locator(".notice", { hasText: "sent." });
      await expect(notice.getByRole("button", { name: /Undo/ })).toBeVisible();
      await expectNoAxeViolations(page);
      // The unit goes back to the board free (its send undone by the same person, however long the scan took).
      const unit = (await (await request.get(`/api/units/${unitId}`)).json()) as { state_change_id: string };
      expect((await request.post(`/api/units/${unitId}/undo-state`, { data: { change_id: unit.state_change_id } })).status()).toBe(200);
    });

    test("panel sizes: a handle moves by keyboard and by dragging, and the person's sizes outlive a reload", async ({ page, request }) => {
      // Three page loads.
      test.setTimeout(90_000);
      await tilesOffline(page);
      await openDashboard(page);
      const me = (await (await request.get("/api/me")).json()) as { id: string };
      await page.evaluate((id) => window.localStorage.removeItem(`mayday.layout.${id}`), me.id);
      await page.reload();
      const handle = page.getByRole("separator", { name: "Width of the queue beside the incident" });
      const queue = page.locator("section.queue");
      await expect(handle).toHaveAttribute("aria-valuenow", "53");
      const narrow = (await queue.boundingBox())!.width;
      await handle.focus();
      for (let press = 0; press < 5; press++) await page.keyboard.press("ArrowRight");
      await expect(handle).toHaveAttribute("aria-valuenow", "63");
      const wider = (await queue.boundingBox())!.width;
      expect(wider).toBeGreaterThan(narrow + 40);

      // Dragged 100 px to the left, the queue narrows by about as much.
      const grip = (await handle.boundingBox())!;
      await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
      await page.mouse.down();
      await page.mouse.move(grip.x + grip.width / 2 - 100, grip.y + grip.height / 2, { steps: 5 });
      await page.mouse.up();
      const dragged = (await queue.boundingBox())!.width;
      expect(Math.abs(wider - 100 - dragged)).toBeLessThan(12);

      // The map's height, by keyboard too.
      const rows = page.getByRole("separator", { name: "Height of the map above the units" });
      const map = page.locator(".map-panel");
      const mapHeight = (await map.boundingBox())!.height;
      await rows.focus();
      await page.keyboard.press("PageDown");
      expect((await map.boundingBox())!.height).toBeGreaterThan(mapHeight + 30);

      // Kept for this person: the same sizes after a reload, under the person's own key.
      const kept = await handle.getAttribute("aria-valuenow");
      await page.reload();
      await expect(handle).toHaveAttribute("aria-valuenow", kept!);
      expect(Math.abs((await queue.boundingBox())!.width - dragged)).toBeLessThan(3);
      const stored = await page.evaluate((id) => window.localStorage.getItem(`mayday.layout.${id}`), me.id);
      expect(stored).not.toBeNull();
      // Another person's sizes are not this person's.
      await page.evaluate((id) => window.localStorage.removeItem(`mayday.layout.${id}`), me.id);
      await page.evaluate(() => window.localStorage.setItem("mayday.layout.someone-else", JSON.stringify({ columns: [60, 20, 20], rows: [50, 50] })));
      await page.reload();
      await expect(handle).toHaveAttribute("aria-valuenow", "53");
      await expectNoAxeViolations(page);
    });
  });
});
