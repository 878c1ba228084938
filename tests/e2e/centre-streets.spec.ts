import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { E2E_OFFLINE_ADMIN } from "../../playwright.config";
import { expectNoAxeViolations, openDashboard } from "./dashboard-helpers";

/**
 * The centre's own streets (docs/dashboard.md, "Street map"), on the offline-map project's server:
 * no PMTiles street map, no tile server. Over the synthetic county of tests/fixtures/gis, imported
 * here, the map's first view is the county, its region buttons name the county's towns, and close
 * in it draws the imported streets with their names and house numbers, from this server alone.
 */
const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
type Feature = { properties: Record<string, string | number | undefined>; geometry: { coordinates: [number, number][] } };
const features: Feature[] = JSON.parse(readFileSync(path.join(FIXTURES, "centrelines.geojson"), "utf8")).features;
const streetNames = new Set(features.map(({ properties: p }) => [p.St_PreDir, p.St_PreTyp, p.St_Name, p.St_PosTyp, p.St_PosDir].filter(Boolean).join(" ")));
// A house number as the map writes it: NENA's prefix, number and suffix (the first three columns).
const houseNumbers = new Set(readFileSync(path.join(FIXTURES, "address-points.csv"), "utf8").trim().split("\n").slice(1).map((line) => line.split(",").slice(0, 3).join("")));

async function importCounty(page: Page, baseURL: string): Promise<void> {
  expect((await page.request.post("/api/session", { data: E2E_OFFLINE_ADMIN })).status()).toBe(200);
  for (const [file, layer, type] of [["centrelines.geojson", "centrelines", "application/geo+json"], ["address-points.csv", "address_points", "text/csv"]]) {
    const response = await page.request.post(`/api/gis?layer=${layer}&name=${file}`, {
      data: readFileSync(path.join(FIXTURES, file)),
      headers: { "content-type": type, origin: baseURL },
      timeout: 120_000,
    });
    expect(response.status(), await response.text()).toBe(200);
  }
}

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
