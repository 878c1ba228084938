import { expect, test, type APIRequestContext } from "@playwright/test";
import { specCallEvent } from "../../lib/webhook/sample-events";
import { expectNoAxeViolations, openDashboard, queuedIncident, tilesOffline } from "./dashboard-helpers";

/**
 * The unit board (docs/units.md, "The unit board"): the roster with each unit's state, the incident
 * it serves and a timer; with an incident open, a dispatcher sends a unit by keyboard (u, Enter),
 * a unit that is not free only after saying yes; the board follows each unit's moves through the
 * change feed. This spec runs last of the app's: the units it makes stay on the board.
 */
const RUN = Date.now().toString(36);

interface UnitView { id: string; call_sign: string; state: string; incident_id: string | null }

async function createUnit(request: APIRequestContext, callSign: string, type: string): Promise<UnitView> {
  const response = await request.post("/api/units", { data: { call_sign: callSign, type, station: "Station 3", station_latitude: 25.77, station_longitude: -80.19 } });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

async function unitOf(request: APIRequestContext, id: string): Promise<UnitView> {
  return (await request.get(`/api/units/${id}`)).json();
}

async function postCall(request: APIRequestContext, id: string, location: string): Promise<void> {
  expect((await request.post("/api/voiceagent-webhook", { data: specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) }) })).status()).toBe(200);
}

test("a dispatcher sends units from the unit board by keyboard; a busy one only after saying yes; the board follows their moves", async ({ page, request }) => {
  test.setTimeout(90_000);
  const engine = await createUnit(request, `E-${RUN}`, "engine");
  const medic = await createUnit(request, `M-${RUN}`, "ambulance");
  const first = `e2e-units-first-${RUN}`;
  const second = `e2e-units-second-${RUN}`;
  await postCall(request, first, `${RUN} Harbor Lane, Key Largo, Florida`);
  await postCall(request, second, `${RUN} Coral Way, Marathon, Florida`);

  await tilesOffline(page);
  await openDashboard(page);
  const board = page.locator("section.units");
  const row = (unit: UnitView) => board.locator(`.unit-row[data-unit-id="${unit.id}"]`);
  await expect(row(engine)).toContainText("available");
  await expect(row(medic)).toContainText("available");
  // No incident open: nothing to send to.
  await expect(board.locator(".action-send-unit")).toHaveCount(0);

  // The first incident, opened from its queue row; `u` focuses a free unit's Send, Enter sends it.
  const { incidentId, item } = await queuedIncident(page, request, first);
  await item.locator(".queue-title").focus();
  await page.keyboard.press("Enter");
  await expect(page.locator(`.incident-detail[data-incident-id="${incidentId}"]`)).toBeFocused();
  await expect(row(engine).locator(".action-send-unit")).toBeVisible();
  await page.keyboard.press("u");
  // The first free unit by call sign: one of this run's, or of an earlier attempt's.
  const focusedUnit = await page.evaluate(() => document.activeElement?.closest<HTMLElement>(".unit-row")?.dataset.unitId);
  expect(focusedUnit).toBeTruthy();
  const sent = await unitOf(request, focusedUnit!);
  expect(sent.state).toBe("available");
  await page.keyboard.press("Enter");
  await expect(row(sent)).toContainText("dispatched");
  await expect(row(sent).locator(".unit-incident")).toContainText(incidentId.slice(-6));
  expect(await unitOf(request, sent.id)).toMatchObject({ state: "dispatched", incident_id: incidentId });
  // On the map at its home station (no position reported yet), in its state.
  const marker = page.locator(`.leaflet-marker-pane .unit-marker[title^="Unit ${sent.call_sign} ("]`);
  await expect(marker).toHaveAttribute("title", /, dispatched, at Station 3 \(home station\)$/);
  await expect(marker).toHaveClass(/unit-dispatched/);
  // The board's own part of the page (the map's popup, open above, is the other specs').
  await expectNoAxeViolations(page, "section.units");

  // The unit reports en route (its crew's tablet): the board follows through the change feed, its timer restarts.
  expect((await request.post(`/api/units/${sent.id}/state`, { data: { state: "en_route" } })).status()).toBe(200);
  await expect(row(sent)).toContainText("en route");
  await expect(row(sent).locator(".unit-timer")).toHaveText(/^0:0\d$/);
  await expect(marker).toHaveClass(/unit-en_route/);
  // On scene, with where it is: the board, its timer and the map follow (the square at the reported point, in the state's colour).
  const at = await marker.boundingBox();
  expect((await request.post(`/api/units/${sent.id}/state`, { data: { state: "on_scene", latitude: 25.9, longitude: -80.1 } })).status()).toBe(200);
  await expect(row(sent)).toContainText("on scene");
  await expect(row(sent).locator(".unit-timer")).toHaveText(/^0:0\d$/);
  await expect(marker).toHaveAttribute("title", /, on scene, reported /);
  await expect(marker).toHaveClass(/unit-on_scene/);
  await expect.poll(async () => (await marker.boundingBox())?.y).not.toBe(at?.y);

  // The second incident: the busy unit is sent only after the dispatcher says yes.
  const { incidentId: otherId, item: otherItem } = await queuedIncident(page, request, second);
  await otherItem.locator(".queue-title").click();
  await expect(page.locator(`.incident-detail[data-incident-id="${otherId}"]`)).toBeVisible();
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await row(sent).locator(".action-send-unit").focus();
  await page.keyboard.press("s");
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toContain(`${sent.call_sign} is on scene on incident ${incidentId}`);
  expect(await unitOf(request, sent.id)).toMatchObject({ state: "on_scene", incident_id: incidentId });
  // Send takes no second press while its first is still at work (it says so: aria-busy).
  await expect(row(sent).locator(".action-send-unit")).toHaveAttribute("aria-busy", "false");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("s");
  await expect(row(sent).locator(".unit-incident")).toContainText(otherId.slice(-6));
  expect(await unitOf(request, sent.id)).toMatchObject({ state: "dispatched", incident_id: otherId });
});

test("an administrator keeps the roster from its page: one unit by the form, a CSV all or nothing, out of service and back", async ({ page, request }) => {
  await page.goto("/admin/units");
  const add = page.getByRole("form", { name: "Add a unit" });
  await add.getByLabel("Call sign").fill(`L-${RUN}`);
  await add.getByLabel("Type").selectOption("ladder");
  await add.getByLabel("Station", { exact: true }).fill("Station 9");
  await add.getByLabel("Station latitude").fill("25.79");
  await add.getByLabel("Station longitude").fill("-80.21");
  await add.getByRole("button", { name: "Add" }).click();
  const roster = page.getByRole("table", { name: "Units" });
  const ladder = roster.locator("tr", { hasText: `L-${RUN}` });
  await expect(ladder).toContainText("available");

  // A CSV with a bad line adds nothing and says which line; corrected, it adds every unit.
  const csv = (latitude: string) => `call_sign,type,station,station_latitude,station_longitude\nR-${RUN},rescue,Station 9,25.79,-80.21\nH-${RUN},hazmat,Station 9,${latitude},-80.21\n`;
  const importForm = page.getByRole("form", { name: "Import a roster" });
  await importForm.getByLabel("Or the CSV itself").fill(csv("95"));
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("region", { name: "Import a roster" }).getByRole("alert")).toContainText("Line 3");
  await expect(roster.locator("tr", { hasText: `R-${RUN}` })).toHaveCount(0);
  await importForm.getByLabel("Or the CSV itself").fill(csv("25.8"));
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("unit-import-result")).toHaveText("2 units added.");
  await expect(roster.locator("tr", { hasText: `H-${RUN}` })).toContainText("available");

  await ladder.getByRole("button", { name: `Take out of service L-${RUN}` }).click();
  await expect(ladder).toContainText("out of service");
  const listed = (await (await request.get("/api/units")).json()) as { units: { call_sign: string; state: string }[] };
  expect(listed.units.find((unit) => unit.call_sign === `L-${RUN}`)?.state).toBe("out_of_service");
  await ladder.getByRole("button", { name: `Put in service L-${RUN}` }).click();
  await expect(ladder).toContainText("available");
  await expectNoAxeViolations(page);
});
