import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { specCallEvent } from "../../lib/voice-platforms/elevenlabs/sample-events";
import { callStatus, expectNoAxeViolations, openDashboard, queuedIncident, tilesOffline } from "./dashboard-helpers";

/**
 * Units from the console (docs/units.md, "The unit board"; docs/dashboard.md, "The incident's
 * units"): from a new critical incident's alert its nearest free unit is sent in 4 keys, a crew's
 * on scene entered in 2 and undone with 1, an accidental resolve undone with 1 (the keys counted); a dispatch without
 * a unit asks why; the board follows each unit's moves through the change feed, names incidents by
 * address, and sends a busy unit only after a yes. This spec runs last of the app's: the units it
 * makes stay on the board.
 */
const RUN = Date.now().toString(36);

interface UnitView { id: string; call_sign: string; state: string; incident_id: string | null }

async function createUnit(request: APIRequestContext, callSign: string, type: string, at = { latitude: 25.77, longitude: -80.19 }): Promise<UnitView> {
  const response = await request.post("/api/units", { data: { call_sign: callSign, type, station: "Station 3", station_latitude: at.latitude, station_longitude: at.longitude } });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

async function unitOf(request: APIRequestContext, id: string): Promise<UnitView> {
  return (await request.get(`/api/units/${id}`)).json();
}

async function postCall(request: APIRequestContext, id: string, location: string): Promise<void> {
  expect((await request.post("/api/voiceagent-webhook", { data: specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) }) })).status()).toBe(200);
}

interface IncidentView { latitude: number | null; longitude: number | null; status: string; status_change: { id: string; dispatch_reason: string | null; disposition: string | null } | null }

async function incident(request: APIRequestContext, id: string): Promise<IncidentView> {
  return (await request.get(`/api/incidents/${id}`)).json();
}

/** Counts the keys the person presses (keydown events the page receives, repeats aside). */
async function countKeys(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    (window as unknown as { keysPressed: number }).keysPressed = 0;
    document.addEventListener("keydown", (event) => {
      if (!event.repeat) (window as unknown as { keysPressed: number }).keysPressed += 1;
    }, { capture: true });
  });
  return () => page.evaluate(() => (window as unknown as { keysPressed: number }).keysPressed);
}

test("from a new critical incident's alert its nearest free unit is sent in 4 keys, the crew's on scene entered in 2 and undone with 1, an accidental resolve undone with 1", async ({ page, request }) => {
  test.setTimeout(120_000);
  const callId = `e2e-units-alert-${RUN}`;
  await postCall(request, callId, `${RUN} Harbor Lane, Key Largo, Florida`);
  await tilesOffline(page);
  await openDashboard(page);
  const { incidentId } = await queuedIncident(page, request, callId);
  const placed = await incident(request, incidentId);
  expect(placed.latitude, "the incident is placed, so units rank by distance").not.toBeNull();
  // Two engines (a structure fire's response plan asks engines first: docs/units.md), one at the
  // incident's own point and one 60 km away: the near one is the server's first recommendation.
  const near = await createUnit(request, `N-${RUN}`, "engine", { latitude: placed.latitude!, longitude: placed.longitude! });
  const far = await createUnit(request, `F-${RUN}`, "engine", { latitude: placed.latitude! + 0.55, longitude: placed.longitude! });
  // The newest alert, first in the "New" strip.
  const alert = page.locator(`.alert-strip .alert-entry[data-incident-id="${incidentId}"] .alert-open`);
  await expect(page.locator(".alert-strip .alert-open").first()).toHaveCount(1);
  await expect(alert).toBeVisible();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const keys = await countKeys(page);

  // l: the latest alert; Enter: its incident opens beside the queue.
  await page.keyboard.press("l");
  await expect(alert).toBeFocused();
  await page.keyboard.press("Enter");
  const detail = page.locator(`.incident-detail[data-incident-id="${incidentId}"]`);
  await expect(detail).toBeFocused();
  // The server's recommendation, nearest first, with why.
  const recommended = detail.locator(".incident-recommended .recommended-unit");
  await expect(recommended.first()).toHaveAttribute("data-unit-id", near.id);
  await expect(recommended.first()).toContainText(/0\.0 km.*about \d+ min/);
  const ranking = ((await (await request.get(`/api/incidents/${incidentId}/units`)).json()) as { units: { unit: { id: string } }[] }).units.map((entry) => entry.unit.id);
  expect(ranking.indexOf(near.id)).toBe(0);
  expect(ranking.indexOf(far.id)).toBeGreaterThan(0);
  // u: the nearest's Send; Enter sends it.
  await page.keyboard.press("u");
  await expect(recommended.first().locator(".action-send-unit")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await unitOf(request, near.id)).state).toBe("dispatched");
  expect(await unitOf(request, near.id)).toMatchObject({ incident_id: incidentId });
  expect(await keys()).toBe(4);
  // The incident shows its unit and what it does; the board names the incident by its address, never its id.
  const onIt = detail.locator(`.incident-unit-list .unit-row[data-unit-id="${near.id}"]`);
  await expect(onIt).toContainText("dispatched");
  await expect(detail.getByTestId("units-marker")).toHaveText("Unit sent");
  const boardRow = page.locator(`section.units .unit-row[data-unit-id="${near.id}"]`);
  await expect(boardRow.locator(".unit-incident")).toContainText(`Structure fire, ${RUN} Harbor Lane`);
  await expect(boardRow.locator(".unit-incident")).not.toContainText(incidentId.slice(-6));
  await expectNoAxeViolations(page, ".incident-detail");

  // The crew radios "on scene": i focuses the incident's first unit, o enters it.
  const before = await keys();
  await page.keyboard.press("i");
  await expect(onIt.locator("button").first()).toBeFocused();
  await page.keyboard.press("o");
  await expect.poll(async () => (await unitOf(request, near.id)).state).toBe("on_scene");
  expect((await keys()) - before).toBe(2);
  await expect(onIt).toContainText("on scene");
  await expect(detail.getByTestId("units-marker")).toHaveText("On scene");
  // Recorded as the dispatcher's entry: the audit trail names the person, not a key.
  const trail = (await (await request.get(`/api/audit?target_id=${near.id}&action=unit.state_changed`)).json()) as { events: { actor: { kind: string }; after: { state: string } }[] };
  expect(trail.events.find((event) => event.after.state === "on_scene")?.actor.kind).toBe("user");

  // Entered by mistake: z undoes it (1 key), the unit dispatched again, the focus still on its row.
  const onRow = () => page.evaluate(() => document.activeElement?.closest(".incident-units .unit-row")?.getAttribute("data-unit-id") ?? null);
  await expect.poll(onRow).toBe(near.id);
  await expect(page.locator(".notice", { hasText: `${near.call_sign} is on scene` }).getByRole("button", { name: /Undo/ })).toBeVisible();
  const beforeUnitUndo = await keys();
  await page.keyboard.press("z");
  await expect.poll(async () => (await unitOf(request, near.id)).state).toBe("dispatched");
  expect((await keys()) - beforeUnitUndo).toBe(1);
  await expect(onIt).toContainText("dispatched");
  await expect(page.locator(".notice", { hasText: `Undone: ${near.call_sign} is dispatched again` })).toBeVisible();
  await expect.poll(onRow).toBe(near.id);

  // An accidental resolve from the incident's queue row: it asks how it ended (a digit), the focus
  // stays on the row (never the next one), and z undoes it.
  const row = page.locator(`.queue-item[data-incident-id="${incidentId}"] .queue-title`);
  await row.focus();
  await page.keyboard.press("r");
  await expect(page.locator("dialog.move-dialog")).toBeVisible();
  await page.keyboard.press("1");
  await expect.poll(async () => (await incident(request, incidentId)).status).toBe("resolved");
  expect((await incident(request, incidentId)).status_change?.disposition).toBe("handled");
  const notice = page.locator(".notice", { hasText: "moved to Resolved" });
  await expect(notice.getByRole("button", { name: /Undo/ })).toBeVisible();
  const focusedTitle = await page.evaluate(() => document.activeElement?.closest(".queue-item")?.getAttribute("data-incident-id") ?? null);
  expect([incidentId, null]).toContain(focusedTitle);
  const beforeUndo = await keys();
  await page.keyboard.press("z");
  await expect.poll(async () => (await incident(request, incidentId)).status).toBe("dispatched");
  expect((await keys()) - beforeUndo).toBe(1);
  expect((await callStatus(request, callId)).status).toBe("dispatched");
  await expect(row).toBeVisible();
  await expect(page.locator(".notice", { hasText: "Undone: Structure fire" })).toBeVisible();
});

test("an incident's response plan is sent with one press: p focuses Send the plan, Enter sends every unit filling a slot, z takes them all back", async ({ page, request }) => {
  test.setTimeout(90_000);
  const callId = `e2e-units-plan-${RUN}`;
  await postCall(request, callId, `${RUN} Key Deer Blvd, Big Pine Key, Florida`);
  await tilesOffline(page);
  await openDashboard(page);
  const { incidentId, item } = await queuedIncident(page, request, callId);
  const placed = await incident(request, incidentId);
  expect(placed.latitude, "the incident is placed, so the plan is filled by travel time").not.toBeNull();
  // A structure fire, critical: engine 2, ladder 1, ambulance 1, command 1 (docs/units.md), all at the incident's point.
  const at = { latitude: placed.latitude!, longitude: placed.longitude! };
  for (const [sign, type] of [["PE1", "engine"], ["PE2", "engine"], ["PL1", "ladder"], ["PA1", "ambulance"], ["PC1", "command"]]) await createUnit(request, `${sign}-${RUN}`, type, at);
  type Plan = { plan: { complete: boolean; slots: { unit_id: string | null; call_sign: string | null }[] } };
  const { plan } = (await (await request.get(`/api/incidents/${incidentId}/units`)).json()) as Plan;
  expect(plan.complete).toBe(true);
  const planned = plan.slots.map((slot) => slot.unit_id!);
  expect(planned).toHaveLength(5);

  await item.locator(".queue-title").focus();
  await page.keyboard.press("Enter");
  const detail = page.locator(`.incident-detail[data-incident-id="${incidentId}"]`);
  await expect(detail).toBeFocused();
  const sendPlan = detail.locator(".incident-plan .action-send-plan");
  await expect(detail.getByTestId("incident-plan")).toContainText("Response plan (structure fire, critical): 5 of 5 units free");
  await expect(sendPlan).toHaveText(`Send the plan: ${plan.slots.map((slot) => slot.call_sign).join(", ")}`);
  await expectNoAxeViolations(page, ".incident-units");
  // p alone sends nothing: it focuses the button; Enter sends the five in one request.
  await page.keyboard.press("p");
  await expect(sendPlan).toBeFocused();
  expect((await unitOf(request, planned[0])).state).toBe("available");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await Promise.all(planned.map((id) => unitOf(request, id)))).map((unit) => `${unit.state} ${unit.incident_id}`)).toEqual(planned.map(() => `dispatched ${incidentId}`));
  await expect(page.locator(".notice", { hasText: " sent." }).getByRole("button", { name: /Undo/ })).toBeVisible();
  // One undo takes every unit of the plan back.
  await page.keyboard.press("z");
  await expect.poll(async () => (await Promise.all(planned.map((id) => unitOf(request, id)))).map((unit) => `${unit.state} ${unit.incident_id}`)).toEqual(planned.map(() => "available null"));
  await expect(page.locator(".notice", { hasText: "are back as they were" })).toBeVisible();
});

test("a dispatch without a unit asks why, and the intervals report shows it", async ({ page, request }) => {
  test.setTimeout(60_000);
  const callId = `e2e-units-reason-${RUN}`;
  await postCall(request, callId, `${RUN} Ocean Drive, Islamorada, Florida`);
  await tilesOffline(page);
  await openDashboard(page);
  const { incidentId, item } = await queuedIncident(page, request, callId);
  await item.locator(".queue-title").focus();
  await page.keyboard.press("d");
  const dialog = page.locator("dialog.move-dialog");
  await expect(dialog).toContainText("No unit is on this incident");
  await expectNoAxeViolations(page, "dialog.move-dialog");
  await page.keyboard.type("Sheriff's boat sent by radio");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await incident(request, incidentId)).status).toBe("dispatched");
  expect((await incident(request, incidentId)).status_change?.dispatch_reason).toBe("Sheriff's boat sent by radio");
  await page.goto("/reports");
  await expect(page.getByTestId("dispatched-without-unit")).toContainText("Sheriff's boat sent by radio");
});

test("a dispatcher enters crews' reports on the unit board; a busy unit is sent only after a yes that names what it is doing", async ({ page, request }) => {
  test.setTimeout(90_000);
  const engine = await createUnit(request, `E-${RUN}`, "engine");
  const first = `e2e-units-first-${RUN}`;
  const second = `e2e-units-second-${RUN}`;
  await postCall(request, first, `${RUN} Harbor Lane, Key Largo, Florida`);
  await postCall(request, second, `${RUN} Coral Way, Marathon, Florida`);

  await tilesOffline(page);
  await openDashboard(page);
  const board = page.locator("section.units");
  const row = (unit: UnitView) => board.locator(`.unit-row[data-unit-id="${unit.id}"]`);
  await expect(row(engine)).toContainText("available");
  // No incident open: nothing to send to.
  await expect(board.locator(".action-send-unit")).toHaveCount(0);

  const { incidentId, item } = await queuedIncident(page, request, first);
  await item.locator(".queue-title").click();
  await expect(page.locator(`.incident-detail[data-incident-id="${incidentId}"]`)).toBeVisible();
  await row(engine).locator(".action-send-unit").click();
  await expect(row(engine)).toContainText("dispatched");
  // On the map at its home station (no position reported yet), in its state.
  const marker = page.locator(`.leaflet-marker-pane .unit-marker[title^="Unit ${engine.call_sign} ("]`);
  await expect(marker).toHaveAttribute("title", /, dispatched, at Station 3 \(home station\)$/);
  await expect(marker).toHaveClass(/unit-dispatched/);
  await expectNoAxeViolations(page, "section.units");

  // The crew's tablet reports en route: the board follows through the change feed, its timer restarts.
  expect((await request.post(`/api/units/${engine.id}/state`, { data: { state: "en_route" } })).status()).toBe(200);
  await expect(row(engine)).toContainText("en route");
  await expect(row(engine).locator(".unit-timer")).toHaveText(/^0:0\d$/);
  await expect(marker).toHaveClass(/unit-en_route/);
  // On scene, entered on the board by the dispatcher (its button), with the map following.
  await row(engine).getByRole("button", { name: /^on scene/ }).click();
  await expect(row(engine)).toContainText("on scene");
  await expect(marker).toHaveClass(/unit-on_scene/);

  // The second incident: the busy unit is sent only after the dispatcher says yes to words naming what it does.
  const { incidentId: otherId, item: otherItem } = await queuedIncident(page, request, second);
  await otherItem.locator(".queue-title").click();
  await expect(page.locator(`.incident-detail[data-incident-id="${otherId}"]`)).toBeVisible();
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await row(engine).locator(".action-send-unit").focus();
  await page.keyboard.press("s");
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toContain(`${engine.call_sign} is on scene at a structure fire at`);
  expect(asked[0]).not.toContain(incidentId);
  expect(await unitOf(request, engine.id)).toMatchObject({ state: "on_scene", incident_id: incidentId });
  // Send takes no second press while its first is still at work (it says so: aria-busy).
  await expect(row(engine).locator(".action-send-unit")).toHaveAttribute("aria-busy", "false");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("s");
  await expect(row(engine).locator(".unit-incident")).toContainText(`${RUN} Coral Way`);
  expect(await unitOf(request, engine.id)).toMatchObject({ state: "dispatched", incident_id: otherId });
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
