import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import {
  callStatus, chooseDisposition, CLOSED_AS_HANDLED, giveDispatchReason, incidentOf, openDashboard, openDrawer, openWithOneCall, queuedIncident, recordTones, saveScreenshot,
  showLatestFirst, simulateCalls, TILE_PATTERN, tilesOffline, tilesOnline,
} from "./dashboard-helpers";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { parseCsv } from "../support/csv";

// Every test owns the calls it makes: its own table name, so the shared database does not matter.
test.describe("dispatcher dashboard", () => {
  test("a simulation run from the form shows its result, markers, queue entries and history rows", async ({ page, request }) => {
    await tilesOffline(page);
    await openDashboard(page);
    await openDrawer(page, "training");
    const form = page.getByRole("form", { name: "Run a disaster simulation" });
    await form.getByLabel("Scenario").selectOption("earthquake_sf");
    await form.getByLabel(/Number of calls/).fill("6");
    await form.getByLabel("Table name").fill("e2e-form-run");
    await form.getByLabel(/Duplicate callers/).fill("50");
    const posted = page.waitForRequest((sent) => sent.url().endsWith("/api/simulate"));
    await form.getByRole("button", { name: "Run simulation" }).click();
    expect((await posted).postDataJSON()).toEqual({ scenario: "earthquake_sf", num_calls: 6, table_name: "e2e-form-run", duplicate_share: 0.5 });

    const result = page.locator(".sim-result");
    await expect(result).toContainText("Generated 6 calls for San Francisco Earthquake", { timeout: 30_000 });
    await expect(result.getByTestId("sim-successful")).toHaveText("6");
    await expect(result.getByTestId("sim-failed")).toHaveText("0");
    const sampleIds = await result.locator(".sim-samples code").allTextContents();
    expect(sampleIds.length).toBeGreaterThan(0);

    // The queue lists their incidents, and the map (moved to San Francisco) draws them.
    for (const id of sampleIds) await queuedIncident(page, request, id);
    await expect(page.locator(".leaflet-marker-pane .call-marker, .leaflet-marker-pane .cluster-marker").first()).toBeVisible();
    // Polled: the grouper moves the calls into their incidents a moment after the simulation
    // answers, and the map redraws its markers when that change arrives.
    await expect
      .poll(async () => {
        const titles = await page.locator(".leaflet-marker-pane .call-marker").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("title") ?? ""));
        const clustered = await page.locator(".leaflet-marker-pane .cluster-marker").count();
        return titles.some((title) => /District/.test(title)) || clustered > 0;
      })
      .toBe(true);
    await saveScreenshot(page, "dashboard");

    await openDrawer(page, "history");
    const filters = page.getByRole("form", { name: "History filters" });
    await filters.getByLabel("Table", { exact: true }).fill("e2e-form-run");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.locator("#history-range")).toContainText("of 6");
    await expect(page.locator(".history-table tbody tr")).toHaveCount(6);
    for (const id of sampleIds) await expect(page.locator(`.history-table tr[data-call-id="${id}"]`)).toBeVisible();
  });

  test("bad simulation input is stopped in the form with the reason", async ({ page }) => {
    await tilesOffline(page);
    const posted: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/simulate")) posted.push(request.url());
    });
    await openDashboard(page);
    await openDrawer(page, "training");
    const form = page.getByRole("form", { name: "Run a disaster simulation" });
    await form.getByLabel(/Number of calls/).fill("101");
    await form.getByLabel("Table name").fill("no spaces allowed");
    await form.getByLabel(/Duplicate callers/).fill("95");
    await form.getByRole("button", { name: "Run simulation" }).click();
    await expect(form.getByText("Enter a whole number of calls from 1 to 100.")).toBeVisible();
    await expect(form.getByText(/letters, digits, dots, dashes or underscores/)).toBeVisible();
    await expect(form.getByText("Enter a whole percentage from 0 to 90.")).toBeVisible();
    await expect(form.getByLabel(/Number of calls/)).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel(/Number of calls/).fill("0");
    await form.getByRole("button", { name: "Run simulation" }).click();
    await expect(form.getByText("Enter a whole number of calls from 1 to 100.")).toBeVisible();
    expect(posted).toEqual([]);
  });

  test("an incident advances through its statuses from the queue and from its map popup, its call with it", async ({ page, request }) => {
    const { id, incidentId, item } = await openWithOneCall(page, request, "nashville_tornado", "e2e-advance", 11);
    // Waiting: in the first section, where rows carry no status badge.
    await expect(page.locator(`.section-waiting .queue-item[data-incident-id="${incidentId}"]`)).toBeVisible();
    await expect(item.locator(".status")).toHaveCount(0);
    // A row's next move shows while it is hovered (or focused), the others are in the detail: the
    // type stays whole beside it.
    await item.hover();
    await expect(item.getByRole("button", { name: "Failed", exact: true })).toHaveCount(0);
    expect(await item.locator(".queue-title").evaluate((title) => title.scrollWidth <= title.clientWidth)).toBe(true);
    await item.getByRole("button", { name: "Dispatched", exact: true }).click();
    await giveDispatchReason(page);
    await expect(item.locator(".status")).toHaveText("Dispatched");
    // Dispatched, it moves to the second section once both sections have read the server again.
    const dispatchedRow = page.locator(`.section-dispatched .queue-item[data-incident-id="${incidentId}"]`);
    await expect(dispatchedRow).toBeVisible();
    await expect(page.locator(`.section-waiting .queue-item[data-incident-id="${incidentId}"]`)).toHaveCount(0);
    // A hovered row keeps its height: the virtualiser has nothing to measure again, so neither the
    // rows nor the section (which sizes to its rows) move under the pointer.
    const unhovered = (await dispatchedRow.boundingBox())!.height;
    await dispatchedRow.hover();
    expect((await dispatchedRow.boundingBox())!.height).toBeCloseTo(unhovered, 0);
    await dispatchedRow.getByRole("button", { name: "En route", exact: true }).click();
    await expect(item.locator(".status")).toHaveText("En route");
    await expect.poll(async () => (await callStatus(request, id)).status).toBe("enroute");

    // Selecting the incident flies the map to it and opens its popup.
    await item.getByRole("button", { name: /on the map/ }).click();
    const popup = page.locator(`.incident-popup[data-incident-id="${incidentId}"]`);
    await expect(popup).toBeVisible();
    await expect(popup).toContainText("En route");
    await saveScreenshot(page, "map-popup");
    await popup.getByRole("button", { name: "Resolved", exact: true }).click();
    await chooseDisposition(page);

    await expect(item).toHaveCount(0);
    await expect.poll(async () => (await callStatus(request, id)).status).toBe("resolved");
    const { history } = await callStatus(request, id);
    expect(history.map((change) => change.status)).toEqual(["active", "dispatched", "enroute", "resolved"]);
  });

  test("a call the geocoder could not place is queued without a map jump that would do nothing", async ({ page, request }) => {
    const id = "e2e-not-located";
    const event = specCallEvent(id, { location: "behind the old barn past the creek", eventTimestamp: Math.floor(Date.now() / 1000) });
    expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
    expect((await callStatus(request, id)) as unknown).toMatchObject({ latitude: null, longitude: null });
    await tilesOffline(page);
    await openDashboard(page);
    const { item } = await queuedIncident(page, request, id);
    await expect(item).toContainText("Structure fire");
    await expect(item).toContainText("(not on the map)");
    await expect(item.getByRole("button", { name: /on the map/ })).toHaveCount(0);
    await item.hover();
    await expect(item.getByRole("button", { name: "Dispatched", exact: true })).toBeVisible();
  });

  test("a move the server refuses is rolled back with the server's message", async ({ page, request }) => {
    const { incidentId, item } = await openWithOneCall(page, request, "la_wildfire", "e2e-refused", 12);
    const waiting = page.locator(`.section-waiting .queue-item[data-incident-id="${incidentId}"]`);
    await expect(waiting).toBeVisible();

    // Another dispatcher closes the incident while this page still shows it open: hold this page's
    // refreshes (the pushed change only marks them stale) so its view stays the stale one.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/(calls\?|live\/)/, async (route) => {
      await held;
      await route.continue();
    });
    expect((await request.patch(`/api/incidents/${incidentId}`, { data: CLOSED_AS_HANDLED })).status()).toBe(200);
    const refusal = await request.patch(`/api/incidents/${incidentId}`, { data: { status: "dispatched" } });
    expect(refusal.status()).toBe(409);
    const { message, error_code } = await refusal.json();
    expect(error_code).toBe("INVALID_TRANSITION");

    await item.hover();
    await item.getByRole("button", { name: "Dispatched", exact: true }).click();
    const notice = page.locator(".notice", { hasText: incidentId });
    await expect(notice).toContainText(message);
    // Rolled back: waiting again.
    await expect(waiting).toBeVisible();
    await expect(waiting.locator(".status")).toHaveCount(0);
    await saveScreenshot(page, "refused-move");

    release();
    await expect(item).toHaveCount(0);
  });

  test("the history filters, pages, sorts, opens a record and exports CSV", async ({ page, request }) => {
    await simulateCalls(request, { scenario: "hurricane_florida", num_calls: 30, table_name: "e2e-history", seed: 13 });
    await tilesOffline(page);
    await openDashboard(page);
    await openDrawer(page, "history");
    const filters = page.getByRole("form", { name: "History filters" });
    await filters.getByLabel("Table", { exact: true }).fill("e2e-history");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    const range = page.locator("#history-range");
    const rows = page.locator(".history-table tbody tr");
    await expect(range).toContainText("Calls 1–25 of 30");
    await expect(rows).toHaveCount(25);
    await expect(page.locator(".hourly-chart svg")).toHaveAttribute("aria-label", /30 calls/);

    await page.getByRole("button", { name: "Next page" }).click();
    await expect(range).toContainText("Calls 26–30 of 30");
    await expect(rows).toHaveCount(5);
    await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();

    // Oldest first reads the same listing from its far end.
    const newestFirst = await request.get("/api/calls?table_name=e2e-history&limit=30");
    const ids: string[] = (await newestFirst.json()).calls.map((call: { conversation_id: string }) => call.conversation_id);
    await page.getByRole("button", { name: /^Time/ }).click();
    await expect(range).toContainText("Calls 1–25 of 30");
    await expect(rows.first()).toHaveAttribute("data-call-id", ids[29]);
    await page.getByRole("button", { name: /^Time/ }).click();
    await expect(rows.first()).toHaveAttribute("data-call-id", ids[0]);

    // A second filter narrows the same listing the API gives.
    await filters.getByLabel("Severity").selectOption("critical");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    const critical = (await (await request.get("/api/calls?table_name=e2e-history&severity=critical")).json()).pagination.total;
    await expect(range).toContainText(critical === 0 ? "No calls" : `of ${critical}`);
    for (const row of await rows.all()) if (critical > 0) await expect(row).toContainText("Critical");

    await filters.getByLabel("Severity").selectOption("");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(range).toContainText("of 30");
    await rows.first().getByRole("button").click();
    const detail = page.locator(".call-detail");
    const record = await callStatus(request, ids[0]);
    await expect(detail).toContainText(ids[0]);
    await expect(detail.getByText((record as unknown as { summary: string }).summary)).toBeVisible();
    await expect(detail.locator(".status-history li")).toHaveCount(1);
    await saveScreenshot(page, "history-detail", true);

    // The server writes the file for the applied filters: the same 30 calls, newest first.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.url()).toContain("/api/calls/export.csv?table_name=e2e-history");
    expect(file.suggestedFilename()).toMatch(/^mayday-calls-.+\.csv$/);
    const [header, ...csvRows] = parseCsv(Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8"));
    expect(header.slice(0, 2)).toEqual(["conversation_id", "timestamp"]);
    expect(csvRows.map((row) => row[0])).toEqual(ids);
    expect(csvRows.map((row) => row[header.indexOf("table_name")])).toEqual(ids.map(() => "e2e-history"));
  });

  test("markers show on the map's own outlines when tiles cannot load, and on tiles when they can", async ({ page, request }) => {
    await simulateCalls(request, { scenario: "la_wildfire", num_calls: 3, table_name: "e2e-tiles", seed: 14 });
    await tilesOffline(page);
    await openDashboard(page);
    await expect(page.getByText("Map tiles cannot be loaded")).toBeVisible();
    await expect(page.locator(".map-frame")).toHaveClass(/tiles-offline/);
    await expect(page.locator(".leaflet-marker-pane .leaflet-marker-icon").first()).toBeVisible();
    // Countries and states at every zoom, counties once zoomed in to a region.
    const basemap = page.locator(".leaflet-basemap-pane");
    await expect(basemap.locator("path.basemap-land").first()).toBeAttached();
    await expect(basemap.locator("path.basemap-state")).toHaveCount(1);
    await page.getByRole("navigation", { name: "Map regions" }).getByRole("button", { name: "Los Angeles Wildfire" }).click();
    await expect(basemap.locator("path.basemap-county")).toHaveCount(1, { timeout: 10_000 });
    // The scenario's districts are named at that zoom, and the region's towns from the place lists,
    // in the labels' pane above the markers.
    const labels = page.locator(".leaflet-map-labels-pane");
    await expect(labels.locator(".basemap-area", { hasText: "Pacific Palisades" })).toBeVisible();
    await expect(labels.locator(".basemap-place", { hasText: /^Santa Monica$/ })).toBeVisible();
    // A town that is also a scenario district is named once.
    await expect(labels.locator(".basemap-label", { hasText: /^Pacific Palisades$/ })).toHaveCount(1);
    expect(await labels.locator(".basemap-place").count()).toBeGreaterThan(5);
    expect(Number(await labels.evaluate((pane) => getComputedStyle(pane).zIndex))).toBeGreaterThan(
      Number(await page.locator(".leaflet-marker-pane").evaluate((pane) => getComputedStyle(pane).zIndex)),
    );
    await saveScreenshot(page, "offline-tiles");

    await page.unroute(TILE_PATTERN);
    await tilesOnline(page);
    await page.reload();
    await expect(page.locator(".leaflet-tile-loaded").first()).toBeAttached();
    await expect(page.locator(".leaflet-marker-pane .leaflet-marker-icon").first()).toBeVisible();
    await expect(page.locator(".map-frame")).not.toHaveClass(/tiles-offline/);
    await expect(page.getByText("Map tiles cannot be loaded")).toHaveCount(0);
    await expect(page.locator(".leaflet-basemap-pane path")).toHaveCount(0);
  });

  test("the page fetches nothing but the app and its tiles", async ({ page, request, baseURL }) => {
    await simulateCalls(request, { scenario: "earthquake_sf", num_calls: 2, table_name: "e2e-network", seed: 15 });
    const foreign: string[] = [];
    const origin = new URL(baseURL as string).origin;
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.origin !== origin && !TILE_PATTERN.test(url.pathname) && url.protocol !== "data:") foreign.push(req.url());
    });
    await tilesOffline(page);
    await openDashboard(page);
    await expect(page.locator(".leaflet-marker-pane .leaflet-marker-icon").first()).toBeVisible();
    // The change stream stays open, so the network is never idle: wait for every panel instead.
    await expect(page.getByTestId("feed-mode")).toHaveText("Live");
    await openDrawer(page, "history");
    await expect(page.locator(".history-table tbody tr").first()).toBeVisible();
    await expect(page.locator(".hourly-chart svg")).toBeVisible();
    expect(foreign).toEqual([]);
  });

  test("an unreachable API shows a banner and keeps the last data", async ({ page, request }) => {
    await simulateCalls(request, { scenario: "earthquake_sf", num_calls: 1, table_name: "e2e-banner", seed: 16 });
    await tilesOffline(page);
    // An open stream is not cut by request routing: start on the polling path, which makes a
    // request every few seconds (a dropped stream falls back to the same path).
    await page.route(/\/api\/calls\/stream/, (route) => route.abort("connectionrefused"));
    await openDashboard(page);
    await expect(page.getByTestId("feed-mode")).toHaveText("Polling");
    await page.route(/\/api\/calls/, (route) => route.abort("connectionrefused"));
    await expect(page.locator(".banner[role=alert]", { hasText: "cannot be reached" })).toBeVisible({ timeout: 20_000 });
    // The time shown stays that of the last answer through the next failed poll.
    const before = await page.getByTestId("last-updated").textContent();
    await page.waitForEvent("requestfailed", (failed) => failed.url().includes("/api/calls/changes"));
    await expect(page.getByTestId("last-updated")).toHaveText(before ?? "");
    await expect(page.locator(".queue-item").first()).toBeVisible();
    await saveScreenshot(page, "api-unreachable");
    await page.unroute(/\/api\/calls/);
    await expect(page.locator(".banner[role=alert]", { hasText: "cannot be reached" })).toHaveCount(0, { timeout: 20_000 });
  });

  test("the severity counts show a disaster's numbers whole at 1280, 1440 and 1920 px", async ({ page }) => {
    await tilesOffline(page);
    // Counts of the size a surge reaches; only the numbers are replaced, the rest is the server's.
    await page.route("**/api/live/board*", async (route) => {
      const response = await route.fetch();
      const board = await response.json();
      board.open_incidents_by_severity = { critical: 138_580, high: 38_580, moderate: 238_580 };
      board.open.by_severity = { critical: 238_580, high: 138_580, moderate: 338_580 };
      await route.fulfill({ response, json: board });
    });
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await openDashboard(page);
      await expect(page.getByTestId("count-moderate")).toHaveText("238,580");
      await expect(page.getByTestId("calls-moderate")).toHaveText("338,580 calls");
      // A chip is cut when its content overflows it, or it overflows the queue panel.
      const clipped = await page.locator(".severity-counts li").evaluateAll((chips) => {
        const panel = chips[0].closest("section")!.getBoundingClientRect();
        return chips
          .filter((chip) => chip.scrollWidth > chip.clientWidth || chip.getBoundingClientRect().right > panel.right)
          .map((chip) => chip.textContent);
      });
      expect(clipped, `at ${width} px`).toEqual([]);
    }
  });

  test("a 401 from the API sends the dispatcher to the login page", async ({ page }) => {
    await tilesOffline(page);
    // As the API answers when API_KEY is set and no key was given: the live picture's reads and the calls'.
    await page.route(/\/api\/(calls|live)\//, (route) =>
      route.fulfill({ status: 401, json: { error: "Unauthorized", message: "API key required", error_code: "UNAUTHORIZED" } }),
    );
    await page.goto("/");
    await expect(page).toHaveURL(/\/login\?next=%2F|\/login\?next=\//);
  });

  test("the dashboard has no serious accessibility violations", async ({ page, request }) => {
    await simulateCalls(request, { scenario: "nashville_tornado", num_calls: 3, table_name: "e2e-axe", seed: 17 });
    await tilesOffline(page);
    await openDashboard(page);
    await expect(page.locator(".queue-item").first()).toBeVisible();
    await openDrawer(page, "history");
    await page.locator(".history-table tbody tr").first().getByRole("button").click();
    await expect(page.locator(".call-detail .status-history")).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
    expect(serious).toEqual([]);
  });

  test("the dashboard is keyboard operable", async ({ page, request }) => {
    const { incidentId, item } = await openWithOneCall(page, request, "la_wildfire", "e2e-keyboard", 18);
    const dispatch = item.getByRole("button", { name: "Dispatched", exact: true });
    // From the row's title, Tab reaches its moves (shown while the row holds the focus).
    await item.locator(".queue-title").focus();
    await page.keyboard.press("Tab");
    await expect(dispatch).toBeFocused();
    await page.keyboard.press("Enter");
    await giveDispatchReason(page);
    // The row moves to the second section once the server confirms, and the focus moves with it to its title.
    const dispatchedRow = page.locator(`.section-dispatched .queue-item[data-incident-id="${incidentId}"]`);
    await expect(dispatchedRow.locator(".status")).toHaveText("Dispatched");
    await expect(dispatchedRow.getByRole("button", { name: /on the map/ })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator(`.incident-popup[data-incident-id="${incidentId}"]`)).toBeVisible();
    // Markers are reachable with Tab and carry a description for screen readers.
    const marker = page.locator(".leaflet-marker-pane .call-marker").first();
    await expect(marker).toHaveAttribute("tabindex", "0");
    await expect(marker).toHaveAttribute("title", /at .+, /);
  });

  test("a new critical incident sounds a tone and flashes its entry; muted it only flashes, and the switch is remembered", async ({ page, request }) => {
    const notes = await recordTones(page);
    const post = async (id: string, location: string, severity = "Critical") => {
      const event = specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) });
      event.data.analysis.data_collection_results.severity.value = severity;
      const response = await request.post("/api/voiceagent-webhook", { data: event });
      expect(response.status(), await response.text()).toBe(200);
    };
    await tilesOffline(page);
    await openDashboard(page);
    await expect(page.getByTestId("feed-mode")).toHaveText("Live");

    // The latest received first: the new incidents' rows are drawn at the top of the waiting section.
    await showLatestFirst(page);
    await post("e2e-alert-1", "e2e alert one, 1 Bell Street");
    const first = await incidentOf(request, "e2e-alert-1");
    await expect(page.locator(`.alert-strip .alert-entry[data-incident-id="${first}"]`)).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('.queue-item[data-latest-call-id="e2e-alert-1"]')).toHaveClass(/is-alerting/);
    await expect.poll(notes).toBe(2);
    // A moderate incident is highlighted as new, silently, and never enters the strip.
    await post("e2e-alert-moderate", "e2e alert moderate, 3 Bell Street", "Moderate");
    await expect(page.locator('.queue-item[data-latest-call-id="e2e-alert-moderate"]')).toHaveClass(/is-new/, { timeout: 15_000 });
    await expect(page.locator('.queue-item[data-latest-call-id="e2e-alert-moderate"]')).not.toHaveClass(/is-alerting/);
    await expect(page.locator(`.alert-strip .alert-entry[data-incident-id="${await incidentOf(request, "e2e-alert-moderate")}"]`)).toHaveCount(0);
    expect(await notes()).toBe(2);

    await page.getByRole("button", { name: "Alert sound on" }).click();
    await expect(page.getByRole("button", { name: "Alert sound off" })).toHaveAttribute("aria-pressed", "false");
    await post("e2e-alert-2", "e2e alert two, 2 Bell Street");
    await expect(page.locator(`.alert-strip .alert-entry[data-incident-id="${await incidentOf(request, "e2e-alert-2")}"]`)).toBeVisible({ timeout: 15_000 });
    expect(await notes()).toBe(2);

    await page.reload();
    await expect(page.getByRole("button", { name: "Alert sound off" })).toBeVisible();
  });

  test("keys move through the queue, open an incident, reach the history search and list themselves", async ({ page, request }) => {
    await simulateCalls(request, { scenario: "nashville_tornado", num_calls: 4, table_name: "e2e-keys", seed: 21, duplicate_share: 0 });
    await tilesOffline(page);
    await openDashboard(page);
    const titles = page.locator(".queue-list .queue-title");
    await expect.poll(() => titles.count()).toBeGreaterThan(2);
    await page.locator("body").press("j");
    await expect(titles.nth(0)).toBeFocused();
    await page.keyboard.press("j");
    await expect(titles.nth(1)).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(titles.nth(2)).toBeFocused();
    await page.keyboard.press("k");
    await expect(titles.nth(1)).toBeFocused();
    const id = await page.locator(".queue-list .queue-item").nth(1).getAttribute("data-incident-id");
    await page.keyboard.press("Enter");
    await expect(page.locator(`.incident-detail`)).toBeVisible();
    await expect(page.locator(".queue-list .queue-item").nth(1)).toHaveClass(/is-selected/);
    expect(id).not.toBeNull();

    // Status keys act on the focused entry through its own buttons; Failed asks first.
    await titles.nth(0).focus();
    const entry = page.locator(".queue-list .queue-item").nth(0);
    const entryId = await entry.getAttribute("data-incident-id");
    const byId = page.locator(`.queue-item[data-incident-id="${entryId}"]`);
    await page.keyboard.press("d");
    await giveDispatchReason(page);
    // Moved, once the server's queue is read again, to the second section.
    await expect(page.locator(`.section-dispatched .queue-item[data-incident-id="${entryId}"]`)).toBeVisible();
    await expect(byId.locator(".status")).toHaveText("Dispatched");
    // Failed asks how it ended; Esc cancels, and the focus is where it was.
    await byId.locator(".queue-title").focus();
    await page.keyboard.press("f");
    await expect(page.locator("dialog.move-dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.locator("dialog.move-dialog")).toHaveCount(0);
    await expect(byId.locator(".queue-title")).toBeFocused();
    await expect(byId.locator(".status")).toHaveText("Dispatched");
    await page.keyboard.press("f");
    await page.keyboard.press("7");
    await expect(byId).toHaveCount(0);
    await expect.poll(async () => ((await (await request.get(`/api/incidents/${entryId}`)).json()) as { status: string }).status).toBe("failed");

    await page.keyboard.press("/");
    const search = page.locator('.history input[name="location"]');
    await expect(search).toBeFocused();
    // Typed into a field, the keys are the field's.
    await page.keyboard.type("j/?");
    await expect(search).toHaveValue("j/?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);

    await search.blur();
    await page.locator("body").press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toContainText("Next incident in the queue");
    await page.keyboard.press("Escape");
    await expect(help).toHaveCount(0);
  });
});
