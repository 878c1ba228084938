import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { expectNoAxeViolations, FIXTURES, importCounty, openDashboard } from "./dashboard-helpers";

/**
 * The centre's own streets (docs/dashboard.md, "Street map"), on the offline-map project's server:
 * no PMTiles street map, no tile server. Over the synthetic county of tests/fixtures/gis, imported
 * here, the map's first view is the county, its region buttons name the county's towns, and close
 * in it draws the imported streets with their names and house numbers, from this server alone.
 */
type Feature = { properties: Record<string, string | number | undefined>; geometry: { coordinates: [number, number][] } };
const features: Feature[] = JSON.parse(readFileSync(path.join(FIXTURES, "centrelines.geojson"), "utf8")).features;
const streetNames = new Set(features.map(({ properties: p }) => [p.St_PreDir, p.St_PreTyp, p.St_Name, p.St_PosTyp, p.St_PosDir].filter(Boolean).join(" ")));
// A house number as the map writes it: NENA's prefix, number and suffix (the first three columns).
const houseNumbers = new Set(readFileSync(path.join(FIXTURES, "address-points.csv"), "utf8").trim().split("\n").slice(1).map((line) => line.split(",").slice(0, 3).join("")));

test("with no street map, the map draws the imported streets with their names and house numbers, asking no other host", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await importCounty(page, baseURL!);
  const hosts = new Set<string>();
  const views: number[][] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    hosts.add(url.host);
    if (url.pathname === "/api/live/incident-map") views.push(["west", "south", "east", "north"].map((key) => Number(url.searchParams.get(key))));
  });
  await openDashboard(page);

  // The first view is the county (its GIS extent, about -89.65 to -89.33), not the United States.
  await expect.poll(() => views.some(([west, south, east, north]) => west <= -89.65 && east >= -89.33 && south <= 39.78 && north >= 39.8 && east - west < 2)).toBe(true);
  // The region buttons are the county's towns; the training scenarios only while exercise calls are shown.
  const regions = page.getByRole("navigation", { name: "Map regions" });
  for (const town of ["North Haverbrook", "Ogdenville", "Shelbyville", "Springfield"]) await expect(regions.getByRole("button", { name: town, exact: true })).toBeVisible();
  await expect(regions.getByRole("button", { name: "Florida Hurricane" })).toBeVisible();
  await page.getByRole("checkbox", { name: /hide exercise/i }).check();
  await expect(regions.getByRole("button", { name: "Florida Hurricane" })).toHaveCount(0);
  await page.getByRole("checkbox", { name: /hide exercise/i }).uncheck();

  // Springfield, then closer until its house numbers are drawn: the closest zooms.
  await regions.getByRole("button", { name: "Springfield", exact: true }).click();
  const labels = page.locator(".leaflet-map-labels-pane");
  await expect(page.locator(".leaflet-centre-streets-pane path.centre-street")).toHaveCount(1);
  const zoomIn = page.locator(".leaflet-control-zoom-in");
  await expect(async () => {
    if ((await labels.locator(".street-number").count()) === 0) await zoomIn.click();
    // A label is a point (its marker has no size); its text is the span drawn around it.
    await expect(labels.locator(".street-number span").first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 45_000 });
  // The streets are named from the page: each name drawn is an imported street's, several of them.
  const drawnNames = await labels.locator(".street-label").allTextContents();
  expect(drawnNames.length).toBeGreaterThanOrEqual(3);
  for (const name of drawnNames) expect(streetNames).toContain(name);
  const drawnNumbers = await labels.locator(".street-number").allTextContents();
  for (const number of drawnNumbers) expect(houseNumbers).toContain(number);
  // Named above the markers, taking no clicks.
  expect(Number(await labels.evaluate((pane) => getComputedStyle(pane).zIndex))).toBeGreaterThan(
    Number(await page.locator(".leaflet-marker-pane").evaluate((pane) => getComputedStyle(pane).zIndex)),
  );

  // Nothing was asked of any host but this server.
  expect([...hosts]).toEqual([new URL(baseURL!).host]);
  await expectNoAxeViolations(page, ".map-panel");
  await page.locator(".map-frame").screenshot({ path: "test-results/screenshots/centre-streets.png" });
});

test("two people's emergencies at neighbouring houses are two rows, each marked a possible duplicate; one key merges them", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await importCounty(page, baseURL!);
  // The labour call and the not-breathing call of issue 52: 223 m apart on the county's points, both critical.
  const run = Date.now();
  const calls = [
    { id: `e2e-pair-breathing-${run}`, location: "224 N 8th St, Springfield" },
    { id: `e2e-pair-labour-${run}`, location: "372 North Eighth Street, Springfield" },
  ];
  for (const [index, call] of calls.entries()) {
    const event = specCallEvent(call.id, { location: call.location, eventTimestamp: Math.floor(run / 1000) - 120 + index * 60 });
    event.data.analysis.data_collection_results.emergency_type.value = "Medical Emergency";
    expect((await page.request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
  }
  const incidents = await Promise.all(
    calls.map(async (call) => ((await (await page.request.get(`/api/calls/${call.id}`)).json()) as { incident_id: string }).incident_id),
  );
  expect(incidents[0]).not.toBe(incidents[1]);

  await openDashboard(page);
  const rows = incidents.map((id) => page.locator(`.queue-item[data-incident-id="${id}"]`));
  for (const row of rows) await expect(row).toBeVisible();
  await rows[1].locator(".queue-title").click();
  const detail = page.locator(".incident-detail");
  await expect(detail.getByTestId("possible-duplicate")).toContainText("224 N 8th St, Springfield");

  await page.keyboard.press("g");
  // One incident of both calls, the other's row gone, the mark with it.
  await expect(detail.getByTestId("incident-caller-count")).toContainText("2");
  await expect(detail.locator(".incident-call")).toHaveCount(2);
  await expect(detail.getByTestId("possible-duplicate")).toHaveCount(0);
  await expect(rows[0]).toHaveCount(0);
  await expect(rows[1]).toBeVisible();
});
