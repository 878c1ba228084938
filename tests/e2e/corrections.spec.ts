import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN_STATE } from "../../playwright.config";
import { serverUrl } from "../setup/test-database";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { openDashboard, saveScreenshot, showLatestFirst, tilesOffline } from "./dashboard-helpers";
import { startSecondInstance } from "./second-instance";

// Places the embedded gazetteer knows, about 5 km apart.
const MISSION = { text: "Mission District, San Francisco", latitude: 37.7599, longitude: -122.4148 };
const MARINA = { text: "Marina District, San Francisco", latitude: 37.8037, longitude: -122.4368 };
const CALL = `e2e-correct-${Date.now()}`;

/** The call's detail, opened from its incident's row in the queue. */
async function openCallDetail(page: Page, callId = CALL): Promise<void> {
  // The queue draws the rows in view: the latest received first puts this fresh call's incident at the top.
  await showLatestFirst(page);
  const item = page.locator(`.queue-item[data-latest-call-id="${callId}"]`);
  await item.getByRole("button", { name: /show its calls/ }).click();
  await page.locator(`.incident-call[data-call-id="${callId}"]`).getByRole("button", { name: "Open call" }).click();
  await expect(page.locator(".call-detail")).toContainText(callId);
}

/**
 * The incident's marker once the map flew to the call ("Show on map", zoom 16: a view about a
 * kilometre wide around the call's point): the one whose title names `place`.
 */
async function markerAtCall(page: Page, place: string): Promise<void> {
  await page.locator(".call-detail").getByRole("button", { name: "Show on map" }).click();
  await expect(page.locator(`.incident-marker[title*="Power lines down at ${place}"]`)).toHaveCount(1);
  await expect(page.locator(".incident-popup")).toContainText(place);
}

test.describe("a dispatcher corrects what the agent heard", () => {
  test.skip(!serverUrl(), "a second instance needs PostgreSQL (TEST_DATABASE_URL)");

  test("correcting a call's location moves its marker and its incident, shows on a second instance within a second, and keeps the original in the history", async ({ page, request, browser }) => {
    test.setTimeout(240_000);
    const second = await startSecondInstance();
    const other = await browser.newContext({ storageState: ADMIN_STATE, baseURL: second.url });
    try {
      // A voice-agent call whose location the agent misheard.
      const event = specCallEvent(CALL, { location: MISSION.text, eventTimestamp: Math.floor(Date.now() / 1000) });
      const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
      results.emergency_type = { value: "power_lines_down", rationale: "e2e" };
      const posted = await request.post("/api/voiceagent-webhook", { data: event });
      expect(posted.status(), await posted.text()).toBe(200);
      const before = await (await request.get(`/api/calls/${CALL}`)).json();
      expect(before).toMatchObject({ latitude: MISSION.latitude, longitude: MISSION.longitude });

      // The second instance's dashboard shows the same call's detail.
      const watcher = await other.newPage();
      await tilesOffline(watcher);
      await openDashboard(watcher);
      await expect(watcher.getByTestId("feed-mode")).toHaveText("Live");
      await openCallDetail(watcher);
      await expect(watcher.getByTestId("detail-location")).toHaveText(MISSION.text);

      await tilesOffline(page);
      await openDashboard(page);
      await expect(page.getByTestId("feed-mode")).toHaveText("Live");
      await openCallDetail(page);
      await markerAtCall(page, MISSION.text);

      // The correction, by keyboard: open the form, type the place, Enter.
      const detail = page.locator(".call-detail");
      await detail.getByText("Correct type, severity or location").focus();
      await page.keyboard.press("Enter");
      const location = detail.getByLabel("Location", { exact: true });
      await location.focus();
      await location.fill(MARINA.text);
      await page.keyboard.press("Enter");

      await expect(detail.getByTestId("detail-location")).toHaveText(MARINA.text);
      // The other instance's dashboard follows through the change feed, within a second.
      await expect(watcher.getByTestId("detail-location")).toHaveText(MARINA.text, { timeout: 1_000 });

      // "corrected from ... by ...", and the history with the original and the corrected value.
      const admin = (await (await request.get("/api/me")).json()).name as string;
      await expect(detail.getByTestId("corrected-location")).toHaveText(`Location corrected from “${MISSION.text}” by ${admin}`);
      await expect(detail.getByRole("list", { name: "Corrections" })).toContainText(`Location: “${MISSION.text}” → “${MARINA.text}”, by ${admin}`);
      await expect(watcher.getByTestId("corrected-location")).toHaveText(`Location corrected from “${MISSION.text}” by ${admin}`);
      await saveScreenshot(page, "call-correction", true);
      const axe = await new AxeBuilder({ page }).include(".call-detail").analyze();
      expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);

      // The marker moved: drawn in the view around the corrected point (5 km from the old one, out
      // of that view), no longer at the old place.
      await markerAtCall(page, MARINA.text);
      await expect(page.locator(`.incident-marker[title*="Power lines down at ${MISSION.text}"]`)).toHaveCount(0);

      // The incident's centre moved with its call.
      const after = await (await request.get(`/api/calls/${CALL}`)).json();
      expect(after).toMatchObject({ location: MARINA.text, original_location: MISSION.text });
      const incident = await (await request.get(`/api/incidents/${after.incident_id}`)).json();
      expect(incident.latitude).toBeCloseTo(MARINA.latitude, 4);
      expect(incident.longitude).toBeCloseTo(MARINA.longitude, 4);
    } finally {
      await other.close();
      await second.stop();
    }
  });
});

test("a correction to a street the centre's GIS does not have is refused in the form with why, and placed coarse only when confirmed", async ({ page, request }) => {
  test.setTimeout(180_000);
  // The synthetic county's centrelines (tests/fixtures/gis): Springfield has a 5th St, no Main St.
  const lines = readFileSync(path.join(__dirname, "..", "fixtures", "gis", "centrelines.geojson"));
  const imported = await request.post("/api/gis?name=centrelines.geojson", { data: lines, headers: { "content-type": "application/geo+json" } });
  expect(imported.status(), await imported.text()).toBe(200);
  const id = `e2e-correct-street-${Date.now()}`;
  const posted = await request.post("/api/voiceagent-webhook", { data: specCallEvent(id, { location: "Structure fire, Springfield", eventTimestamp: Math.floor(Date.now() / 1000) }) });
  expect(posted.status(), await posted.text()).toBe(200);

  await tilesOffline(page);
  await openDashboard(page);
  await openCallDetail(page, id);
  const detail = page.locator(".call-detail");
  await detail.getByText("Correct type, severity or location").click();
  const location = detail.getByLabel("Location", { exact: true });
  await location.fill("Main St and 5th St, Springfield");
  await location.press("Enter");

  const refusal = detail.getByTestId("street-not-in-gis");
  await expect(refusal).toContainText("Not corrected: the centre's GIS has no Main St in Springfield.");
  await expect(detail.getByTestId("detail-location")).toHaveText("Structure fire, Springfield");
  await refusal.getByRole("button", { name: /^Place at town centre, about \d+ km anyway$/ }).click();
  await expect(detail.getByTestId("detail-location")).toHaveText("Main St and 5th St, Springfield");
  expect(await (await request.get(`/api/calls/${id}`)).json()).toMatchObject({ location: "Main St and 5th St, Springfield", location_precision: "locality" });
});
