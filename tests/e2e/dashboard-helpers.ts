import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { E2E_OFFLINE_ADMIN } from "../../playwright.config";

/** The synthetic county's GIS files (tests/fixtures/gis). */
export const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");

/**
 * Signs in as the offline-map server's administrator (its specs' page has no stored session) and
 * imports the synthetic county into its GIS: its centrelines and address points.
 */
export async function importCounty(page: Page, baseURL: string): Promise<void> {
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

/** Any map tile, whatever NEXT_PUBLIC_MAP_TILE_URL says: tile URLs end in /{z}/{x}/{y}.png. */
export const TILE_PATTERN = /\/\d+\/\d+\/\d+\.png(\?.*)?$/;

/** The machines have no internet: tiles never load, so tests decide what the tile server does. */
export async function tilesOffline(page: Page): Promise<void> {
  await page.route(TILE_PATTERN, (route) => route.abort("internetdisconnected"));
}

// A 1x1 grey PNG, served as every tile when a test wants the map online.
const TILE_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN4/P//fwAJ+wP9KobjigAAAABJRU5ErkJggg==",
  "base64",
);

export async function tilesOnline(page: Page): Promise<void> {
  await page.route(TILE_PATTERN, (route) => route.fulfill({ status: 200, contentType: "image/png", body: TILE_PNG }));
}

export interface Simulated {
  message: string;
  successful: number;
  sample_calls: { call_id: string; location: string; emergency_type: string }[];
}

/** Stores calls through the public simulation endpoint (templates above 20 calls, so it is quick). */
export async function simulateCalls(
  request: APIRequestContext,
  body: { scenario: string; num_calls: number; table_name: string; seed?: number; duplicate_share?: number },
): Promise<Simulated> {
  const response = await request.post("/api/simulate", { data: body });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Simulated;
}

export async function callStatus(request: APIRequestContext, id: string): Promise<{ status: string; history: { status: string }[] }> {
  const response = await request.get(`/api/calls/${encodeURIComponent(id)}`);
  expect(response.status()).toBe(200);
  return response.json();
}

export async function openDashboard(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByTestId("last-updated")).toBeVisible();
}

/** Opens the history or the training drawer from its header button (docs/dashboard.md, "Layout"), unless it is open. */
export async function openDrawer(page: Page, name: "history" | "training"): Promise<void> {
  const toggle = page.locator(`[data-drawer-toggle="${name}"]`);
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(page.locator(`#drawer-${name}`)).toBeVisible();
}

/** Screenshots of the main views are kept as test artifacts. */
export async function saveScreenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage });
}

/** The queue in order of time received, the latest first (the order is remembered by the browser). */
export async function showLatestFirst(page: Page): Promise<void> {
  await page.getByTestId("queue-sort").selectOption("received");
}

/** The incident a call is grouped into now. */
export async function incidentOf(request: APIRequestContext, callId: string): Promise<string> {
  return ((await callStatus(request, callId)) as unknown as { incident_id: string }).incident_id;
}

/**
 * Scrolls each queue section from its top a view at a time, calling `visit` once each view is
 * drawn, until `visit` says it is done (true) or every section has ended.
 */
async function eachQueueView(page: Page, visit: () => Promise<boolean>): Promise<boolean> {
  for (const section of await page.locator(".queue-scroll").all()) {
    await section.evaluate((element) => element.scrollTo({ top: 0 }));
    for (let step = 0; step < 200; step++) {
      // The virtualiser draws the rows of the new view on its next frames.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      if (await visit()) return true;
      const moved = await section.evaluate((element) => {
        const before = element.scrollTop;
        element.scrollBy({ top: element.clientHeight * 0.8 });
        return element.scrollTop !== before;
      });
      if (!moved) break;
    }
  }
  return false;
}

/**
 * What `read` answers once it has settled: grouping may finish a moment after calls are stored, so
 * it is read until two reads a second apart agree (as `key` says).
 */
export async function untilSettled<T>(read: () => Promise<T>, key: (value: T) => string = JSON.stringify): Promise<T> {
  let previous: string | undefined;
  let value: T | undefined;
  await expect
    .poll(
      async () => {
        value = await read();
        const now = key(value);
        const same = now === previous;
        previous = now;
        return same;
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(true);
  return value as T;
}

/** Scrolls each queue section a view at a time until the row is drawn (or the sections end). */
export async function scrollQueueTo(page: Page, row: Locator): Promise<void> {
  if (await eachQueueView(page, () => row.isVisible())) await row.scrollIntoViewIfNeeded();
}

/**
 * The queue's rows read in one pass, each section from its top a view at a time, until `enough`
 * says so or the sections end: each row's incident and its caller count as shown.
 */
export async function readQueueRows(page: Page, enough: (rows: Map<string, string>) => boolean): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  await eachQueueView(page, async () => {
    const drawn = await page.locator(".queue-item").evaluateAll((items) =>
      items.map((item) => [item.getAttribute("data-incident-id") ?? "", item.querySelector("[data-testid=caller-count]")?.textContent ?? ""] as const),
    );
    for (const [id, callers] of drawn) rows.set(id, callers);
    return enough(rows);
  });
  return rows;
}

/**
 * The queue row of the incident a call belongs to. Grouping may settle a moment after the call is
 * stored (it then moves to another incident), so this waits until the call's incident is the same
 * on two reads and its row is on screen.
 */
export async function queuedIncident(page: Page, request: APIRequestContext, callId: string): Promise<{ incidentId: string; item: Locator }> {
  let incidentId = "";
  await expect(async () => {
    const first = await incidentOf(request, callId);
    const row = page.locator(`.queue-item[data-incident-id="${first}"]`);
    // The queue draws only the rows in view: a fresh incident is near the top when the latest
    // received come first, and further down when other tests' calls are newer: scroll to it.
    if (!(await row.isVisible())) await showLatestFirst(page);
    await scrollQueueTo(page, row);
    await expect(row).toBeVisible({ timeout: 3_000 });
    expect(await incidentOf(request, callId)).toBe(first);
    incidentId = first;
  }).toPass({ timeout: 30_000 });
  return { incidentId, item: page.locator(`.queue-item[data-incident-id="${incidentId}"]`) };
}

/** One fresh call, the dashboard open with tiles offline, and the queue entry of that call's incident. */
export async function openWithOneCall(page: Page, request: APIRequestContext, scenario: string, tableName: string, seed: number) {
  const { sample_calls } = await simulateCalls(request, { scenario, num_calls: 1, table_name: tableName, seed });
  const id = sample_calls[0].call_id;
  await tilesOffline(page);
  await openDashboard(page);
  return { id, ...(await queuedIncident(page, request, id)) };
}

/**
 * Web Audio recorded, not heard: each tone is two notes; `window.__noteTimes` holds when each was
 * played (Date.now()), `window.__noteFrequencies` its pitch (a real alert's and a training one's
 * differ). A script as text: a benchmark's compiler (tsx) would wrap a function's inner named
 * functions in a helper the page does not have.
 */
const TONE_RECORDER = `
  window.__notes = 0;
  window.__noteTimes = [];
  window.__noteFrequencies = [];
  window.AudioContext = class {
    currentTime = 0;
    destination = {};
    createOscillator() {
      const frequency = { value: 0 };
      return {
        frequency,
        connect: (next) => next,
        start: () => { window.__notes += 1; window.__noteTimes.push(Date.now()); window.__noteFrequencies.push(frequency.value); },
        stop: () => undefined,
      };
    }
    createGain() { return { gain: { value: 0 }, connect: (next) => next }; }
    resume() { return Promise.resolve(); }
  };
`;

export async function recordTones(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(TONE_RECORDER);
  return () => page.evaluate(() => (window as unknown as { __notes: number }).__notes);
}

/** No WCAG 2.1 A or AA violation on the page as it is (or in the part `include` selects). */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  // Axe reads colours as drawn: a map popup in Leaflet's fade-in (an opacity transition, run again
  // whenever the map redraws or zooms to its marker) blends with the map and fails contrast it has
  // at rest. Transitions are switched off for the check, so everything is read at its end state.
  const still = await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  try {
    await page.waitForFunction(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition)));
    const axe = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
    const results = await (include ? axe.include(include) : axe).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  } finally {
    await still.evaluate((style) => (style as Element).remove());
  }
}

/** Answers the move dialog for a dispatch with no unit on the incident: the reason (docs/dashboard.md, "Dispatch reason, disposition, undo"). */
export async function giveDispatchReason(page: Page, reason = "E2E: units sent by radio"): Promise<void> {
  const dialog = page.locator("dialog.move-dialog");
  // By keyboard (the field has the focus): the keyboard-only specs count every pointer event.
  await expect(dialog.getByLabel("Reason")).toBeFocused();
  await page.keyboard.type(reason);
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
}

/** Answers the move dialog of a close: how the incident ended. */
export async function chooseDisposition(page: Page, label = "Handled on scene"): Promise<void> {
  const dialog = page.locator("dialog.move-dialog");
  await dialog.getByRole("button", { name: label }).click();
  await expect(dialog).toHaveCount(0);
}

/** What the API's own moves say besides the status, as a dispatcher's key would send them. */
export const CLOSED_AS_HANDLED = { status: "resolved", disposition: "handled" } as const;
