import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations, importCounty, openDashboard } from "./dashboard-helpers";

/**
 * Taking a call on the console (docs/dashboard.md, "Taking a call"), on the offline-map project's
 * server, whose GIS holds the synthetic county (tests/fixtures/gis) imported here: the form opened
 * with one key, the location checked against the county's address points as it is typed and a
 * candidate chosen from its listbox, saved with one key into the queue; a possible duplicate joined
 * with one key; a draft that outlives a reload; a unit's own report from the unit board.
 */

/** The call the form is taking: its id, made when the form opened and kept in the person's draft. */
async function draftedCallId(page: Page): Promise<string> {
  const id = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((name) => name.startsWith("mayday.call-draft."));
    return key ? (JSON.parse(window.localStorage.getItem(key)!) as { conversation_id: string }).conversation_id : null;
  });
  expect(id).not.toBeNull();
  return id!;
}

/** Types a location and chooses its first candidate, by keyboard: the listbox shows it, Enter takes it. */
async function chooseLocation(page: Page, typed: string, label: string): Promise<void> {
  await page.keyboard.type(typed);
  const first = page.getByRole("listbox", { name: "Where it may be" }).getByRole("option").first();
  await expect(first).toContainText(label);
  await expect(first).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page.locator(".call-location-status")).toContainText(`Chosen: ${label}`);
}

test.beforeEach(async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  await importCounty(page, baseURL!);
});

test("a call taken by keyboard only, its GIS candidate chosen, is in the queue: opened with 1 key, saved with 1", async ({ page }) => {
  await openDashboard(page);
  await page.keyboard.press("n");
  const form = page.locator("#drawer-call");
  await expect(form.getByLabel("Callback number")).toBeFocused();
  await page.keyboard.type("(217) 555-0199");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Pat Keyboard");
  await page.keyboard.press("Tab");
  await expect(form.getByRole("combobox", { name: /Location/ })).toBeFocused();
  await chooseLocation(page, "372 north eighth street", "372 N 8th St, Springfield");
  await expectNoAxeViolations(page, "#drawer-call");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Type")).toBeFocused();
  // A select takes the first letters of its option (a space would open its list).
  await page.keyboard.type("Structure");
  await expect(form.getByLabel("Type")).toHaveValue("structure_fire");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Critical");
  await expect(form.getByLabel("Severity")).toHaveValue("critical");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Narrative")).toBeFocused();
  await page.keyboard.type("Kitchen fire, smoke on the second floor, everyone out");
  const callId = await draftedCallId(page);
  await page.keyboard.press("Control+Enter");

  // Saved: the form closes, its draft gone, and the call's incident is in the queue.
  await expect(form).toBeHidden();
  await expect(page.locator(`.queue-item[data-latest-call-id="${callId}"]`)).toBeVisible();
  expect(await page.evaluate(() => Object.keys(window.localStorage).filter((name) => name.startsWith("mayday.call-draft.")))).toEqual([]);
  const call = (await (await page.request.get(`/api/calls/${callId}`)).json()) as Record<string, unknown>;
  expect(call).toMatchObject({
    platform: "call_taker",
    caller_phone: "+12175550199",
    caller_name: "Pat Keyboard",
    location: "372 north eighth street",
    location_matched: "372 N 8th St, Springfield",
    location_precision: "address_point",
    emergency_type: "structure_fire",
    severity: "critical",
    summary: "Kitchen fire, smoke on the second floor, everyone out",
  });
});

test("a possible duplicate is shown while the location is typed near an open incident of the same type, and joined with 1 key", async ({ page, baseURL }) => {
  const near = (await (await page.request.get(`/api/locations?q=${encodeURIComponent("125 S 2nd St, Springfield")}`)).json()) as { candidates: { id: string }[] };
  const first = await page.request.post("/api/calls", {
    data: { location: "125 S 2nd St, Springfield", candidate_id: near.candidates[0].id, emergency_type: "medical_emergency", severity: "high", narrative: "Fall, hip pain" },
    headers: { origin: baseURL! },
  });
  expect(first.status()).toBe(201);
  const { incident_id: incidentId } = (await first.json()) as { incident_id: string };

  await openDashboard(page);
  await page.keyboard.press("n");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await chooseLocation(page, "173 S 2nd St, Springfield", "173 S 2nd St, Springfield");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Medical");
  await page.keyboard.press("Tab");
  await page.keyboard.type("High");
  await expect(page.locator("#drawer-call").getByLabel("Type")).toHaveValue("medical_emergency");
  const duplicate = page.locator(`#drawer-call [data-testid="call-duplicate"][data-incident-id="${incidentId}"]`);
  await expect(duplicate).toContainText("125 S 2nd St");
  await expectNoAxeViolations(page, "#drawer-call");
  const callId = await draftedCallId(page);
  await page.keyboard.press("Alt+j");
  await expect(duplicate.getByRole("button", { name: /Joined/ })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Control+Enter");

  await expect(page.locator("#drawer-call")).toBeHidden();
  await expect(page.locator(`.queue-item[data-incident-id="${incidentId}"]`)).toContainText("2 callers");
  expect(((await (await page.request.get(`/api/calls/${callId}`)).json()) as { incident_id: string }).incident_id).toBe(incidentId);
});

test("a draft outlives a reload and closing the form, for the person who wrote it", async ({ page }) => {
  await openDashboard(page);
  await page.keyboard.press("n");
  await page.keyboard.type("217 555 0123");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Half Way");
  await page.keyboard.press("Tab");
  await chooseLocation(page, "125 S 2nd St, Springfield", "125 S 2nd St, Springfield");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Vehicle");

  await page.reload();
  await expect(page.getByTestId("last-updated")).toBeVisible();
  await page.keyboard.press("n");
  const form = page.locator("#drawer-call");
  await expect(form.getByLabel("Callback number")).toHaveValue("217 555 0123");
  await expect(form.getByLabel("Caller's name")).toHaveValue("Half Way");
  await expect(form.getByLabel("Type")).toHaveValue("vehicle_accident");
  await expect(form.locator(".call-location-status")).toContainText("Chosen: 125 S 2nd St, Springfield");

  // Esc closes it, the draft kept; `n` brings it back as it was.
  await page.keyboard.press("Escape");
  await expect(form).toBeHidden();
  await page.keyboard.press("n");
  await expect(form.getByLabel("Caller's name")).toHaveValue("Half Way");
  await form.getByRole("button", { name: "Discard draft" }).click();
  await expect(form.getByLabel("Caller's name")).toHaveValue("");
});

test("a unit reports an incident itself from the unit board: on scene at it; its radio report is a note naming it", async ({ page, baseURL }) => {
  const origin = { origin: baseURL! };
  const created = await page.request.post("/api/units", { data: { call_sign: `E2E Engine ${Date.now() % 100_000}`, type: "engine", station: "Station 9" }, headers: origin });
  expect(created.status()).toBe(201);
  const unit = (await created.json()) as { id: string; call_sign: string };

  await openDashboard(page);
  const row = page.locator(`.unit-row[data-unit-id="${unit.id}"]`);
  // On the unit (its first report button focused), `n`: the form opens as the unit's own report.
  await row.locator(".action-unit-state").first().focus();
  await expect(row.getByRole("button", { name: /Incident here, reported by/ })).toBeVisible();
  await page.keyboard.press("n");
  const form = page.locator("#drawer-call");
  await expect(form.getByRole("heading", { name: `New incident reported by ${unit.call_sign}` })).toBeVisible();
  await expect(form.getByRole("combobox", { name: /Location/ })).toBeFocused();
  await chooseLocation(page, "372 north eighth street", "372 N 8th St, Springfield");
  await form.getByLabel("Type").selectOption("vehicle_accident");
  await form.getByLabel("Severity").selectOption("high");
  await page.keyboard.press("Control+Enter");
  await expect(form).toBeHidden();
  await expect(row.locator(".unit-state")).toHaveText("on scene");

  // Its incident, opened from the unit's row: a radio report from the unit is a note naming it.
  await row.locator(".unit-incident").click();
  const detail = page.locator(".incident-detail");
  await detail.getByLabel("Radio report from").selectOption({ label: unit.call_sign });
  await detail.getByLabel("Add a note").fill("Two cars, one person trapped");
  await page.keyboard.press("Control+Enter");
  await expect(detail.locator(".note-meta").first()).toContainText(`Radio, ${unit.call_sign}`);
  await expectNoAxeViolations(page, ".incident-detail");
});
