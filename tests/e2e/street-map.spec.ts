import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { E2E_STREET_MAP_PATH } from "../../playwright.config";
import { STREET_MAP_TILE, tileOf } from "../support/street-map-archive";
import { openDashboard, queuedIncident } from "./dashboard-helpers";

/**
 * The centre's own street map (docs/dashboard.md, "Street map"), on the embedded server, whose
 * MAP_PMTILES_URL is E2E_STREET_MAP_PATH (playwright.config.ts): the committed PMTiles fixture, served
 * here by range requests, is drawn with its names in the labels' pane above the markers; an archive
 * that cannot be read falls back to the map's own outlines and says so.
 */
const ARCHIVE = readFileSync("tests/fixtures/street-map/miami-beach.pmtiles");
// first-run.spec.ts's administrator (that file runs first on this server; alone, this one makes her).
const ADMIN = { name: "Ada Admin", email: "ada@centre.example.org", password: "a long enough password" };

async function signIn(page: Page): Promise<void> {
  if ((await page.request.post("/api/session", { data: { email: ADMIN.email, password: ADMIN.password } })).status() === 200) return;
  expect((await page.request.post("/api/setup", { data: ADMIN })).status()).toBeLessThan(300);
  expect((await page.request.post("/api/session", { data: { email: ADMIN.email, password: ADMIN.password } })).status()).toBe(200);
}

async function serveArchive(page: Page, body: Buffer | null): Promise<void> {
  await page.route(`**${E2E_STREET_MAP_PATH}`, (route) => {
    if (!body) return route.fulfill({ status: 404, body: "not here" });
    const [, start, end] = /bytes=(\d+)-(\d*)/.exec(route.request().headers().range ?? "") ?? [];
    if (start === undefined) return route.fulfill({ status: 200, body });
    const last = Math.min(end ? Number(end) : body.length - 1, body.length - 1);
    return route.fulfill({
      status: 206,
      headers: { "content-range": `bytes ${start}-${last}/${body.length}`, "accept-ranges": "bytes" },
      body: body.subarray(Number(start), last + 1),
    });
  });
}

/** Pixels drawn on the canvases of a pane, and the most colours on one of them. */
const drawn = (page: Page, pane: string) =>
  page.locator(pane).evaluate((element) => {
    let pixels = 0;
    let colours = 0;
    for (const canvas of element.querySelectorAll("canvas")) {
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] === 0) continue;
        pixels++;
        seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      }
      colours = Math.max(colours, seen.size);
    }
    return { pixels, colours };
  });

test("the centre's PMTiles street map is drawn, its names above the incident markers", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  await serveArchive(page, ARCHIVE);
  // A call at the middle of the archive's one tile, so the map flies there.
  const { z, lat, lon } = STREET_MAP_TILE;
  const { x, y } = tileOf(z, lat, lon);
  const n = 2 ** z;
  const middle = {
    latitude: (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / n))) * 180) / Math.PI,
    longitude: ((x + 0.5) / n) * 360 - 180,
  };
  const id = `e2e-street-map-${Date.now()}`;
  const event = specCallEvent(id, { location: "1500 Collins Avenue, Miami Beach", eventTimestamp: Math.floor(Date.now() / 1000) - 60 });
  const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
  results.latitude = { value: middle.latitude, rationale: "e2e" };
  results.longitude = { value: middle.longitude, rationale: "e2e" };
  expect((await page.request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);

  await openDashboard(page);
  const { item } = await queuedIncident(page, page.request, id);
  await item.locator("button.queue-title").click();
  await page.locator(".leaflet-popup-close-button").click();
  // At zoom 15 the archive's zoom-14 tile is 512 pixels: the whole of it in view.
  await page.locator(".leaflet-control-zoom-out").click();

  await expect(page.locator(".map-frame")).toHaveClass(/street-map/);
  await expect(page.locator(".leaflet-control-attribution")).toContainText("Synthetic test data");
  // Land, sea and streets drawn (several colours), names drawn in their own pane...
  await expect.poll(async () => (await drawn(page, ".leaflet-tile-pane")).colours, { timeout: 20_000 }).toBeGreaterThan(3);
  await expect.poll(async () => (await drawn(page, ".leaflet-map-labels-pane")).pixels, { timeout: 20_000 }).toBeGreaterThan(100);
  // ...which lies above the markers and takes no clicks.
  const zIndex = (pane: string) => page.locator(pane).evaluate((element) => Number(getComputedStyle(element).zIndex));
  expect(await zIndex(".leaflet-map-labels-pane")).toBeGreaterThan(await zIndex(".leaflet-marker-pane"));
  expect(await page.locator(".leaflet-map-labels-pane").evaluate((element) => getComputedStyle(element).pointerEvents)).toBe("none");
  await expect(page.getByText("cannot be loaded")).toHaveCount(0);
  await page.locator(".map-frame").screenshot({ path: "test-results/screenshots/street-map.png" });
});

test("an archive that cannot be read: the map's own outlines, and a line saying so", async ({ page }) => {
  await signIn(page);
  await serveArchive(page, null);
  await openDashboard(page);
  await expect(page.getByText("The street map cannot be loaded")).toBeVisible();
  await expect(page.locator(".map-frame")).toHaveClass(/tiles-offline/);
  await expect(page.locator(".leaflet-basemap-pane path.basemap-state")).toHaveCount(1);
});
