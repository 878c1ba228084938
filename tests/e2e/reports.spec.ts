import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { elevenLabsCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { incidentOf, openDashboard, openDrawer, tilesOffline } from "./dashboard-helpers";

/** The full transcript in the call detail, `q=` from the history, and the dispatch intervals page (issue 28). */

async function noSeriousViolations(page: Page, scope: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(scope).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

test.describe("transcript and dispatch intervals", () => {
  test("the history finds a call by the caller's words, and its detail shows the conversation turn by turn", async ({ page, request }) => {
    const id = `conv_e2e_transcript_${Date.now()}`;
    const event = elevenLabsCallEvent(id, { eventTimestamp: Math.floor(Date.now() / 1000) - 30 }) as { data: { transcript: unknown[] } };
    event.data.transcript = [
      { role: "agent", message: "911, what is the address of your emergency?", time_in_call_secs: 0 },
      { role: "user", message: `The ${id} bakery oven exploded and the back wall is burning.`, time_in_call_secs: 5 },
      { role: "agent", message: "Is anyone inside?", time_in_call_secs: 72 },
    ];
    expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);

    await tilesOffline(page);
    await openDashboard(page);
    await openDrawer(page, "history");
    const filters = page.getByRole("form", { name: "History filters" });
    await filters.getByLabel("Words said").fill(`${id} bakery oven`);
    await filters.getByRole("button", { name: "Apply filters" }).click();
    const rows = page.locator(".history-table tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute("data-call-id", id);
    await rows.first().getByRole("button").click();

    const transcript = page.getByTestId("transcript");
    await expect(transcript.locator("li")).toHaveCount(3);
    await expect(transcript.locator("li").nth(1)).toContainText("User");
    await expect(transcript.locator("li").nth(1)).toContainText("0:05");
    await expect(transcript.locator("li").nth(1)).toContainText(`The ${id} bakery oven exploded`);
    await expect(transcript.locator("li").nth(2)).toContainText("1:12");
    await noSeriousViolations(page, ".call-detail");
  });

  test("the report page: a dispatched call counted, the filter changed from the keyboard, chart and table, CSV with the same query", async ({ page, request }) => {
    const id = `conv_e2e_report_${Date.now()}`;
    expect((await request.post("/api/voiceagent-webhook", { data: elevenLabsCallEvent(id, { eventTimestamp: Math.floor(Date.now() / 1000) - 30 }) })).status()).toBe(200);
    expect((await request.patch(`/api/calls/${id}`, { data: { status: "dispatched" } })).status()).toBe(200);

    await page.goto("/reports");
    await expect(page.getByRole("heading", { name: "Dispatch intervals" })).toBeVisible();
    const overall = page.getByTestId("report-overall");
    await expect(overall).toBeVisible();
    await expect(page.getByRole("img", { name: /Seconds from arrival to first dispatch per severity/ })).toBeVisible();
    // The dispatched call's type and severity (the sample event's): the row's Dispatched cell counts it.
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "Power lines down", exact: true }) }).filter({
      has: page.getByRole("cell", { name: "High", exact: true }),
    });
    await expect(row.getByRole("cell").nth(3)).not.toHaveText("0");

    // Keyboard only: focus the calls filter, choose "Both", submit with Enter.
    const calls = page.getByRole("combobox", { name: /^Calls/ });
    await calls.focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(calls).toHaveValue("both");
    const answered = page.waitForResponse((response) => response.url().includes("/api/reports/intervals?") && response.url().includes("calls=both"));
    await page.getByRole("button", { name: "Show" }).focus();
    await page.keyboard.press("Enter");
    expect((await answered).status()).toBe(200);
    await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", /\/api\/reports\/intervals\.csv\?.*calls=both/);
    await noSeriousViolations(page, "main");
  });

  test("the report page shows the units: turnout, travel and response per unit type and per unit, in tables and charts", async ({ page, request }) => {
    const run = Date.now().toString(36);
    const callId = `conv_e2e_report_units_${run}`;
    expect((await request.post("/api/voiceagent-webhook", { data: elevenLabsCallEvent(callId, { eventTimestamp: Math.floor(Date.now() / 1000) - 30 }) })).status()).toBe(200);
    const created = await request.post("/api/units", { data: { call_sign: `RPT-${run}`, type: "ambulance" } });
    expect(created.status(), await created.text()).toBe(201);
    const unit = (await created.json()) as { id: string; call_sign: string };
    const incidentId = await incidentOf(request, callId);
    expect((await request.post(`/api/incidents/${incidentId}/units`, { data: { unit_ids: [unit.id] } })).status()).toBe(201);
    for (const state of ["en_route", "on_scene", "available"]) {
      expect((await request.post(`/api/units/${unit.id}/state`, { data: { state } })).status()).toBe(200);
    }
    // Out of service again, so the later specs' boards and recommendations do not count it.
    expect((await request.patch(`/api/units/${unit.id}`, { data: { in_service: false } })).status()).toBe(200);

    await page.goto("/reports");
    const units = page.getByTestId("report-units");
    await expect(units.getByRole("heading", { name: "Units: turnout, travel and response" })).toBeVisible();
    // The unit's own row: sent once, each interval measured (seconds, not "–"), the share within its target.
    const row = units.getByRole("table", { name: "Per unit", exact: true }).getByRole("row", { name: new RegExp(`^${unit.call_sign}\\b`) });
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText("1");
    for (const index of [1, 2, 4, 5, 7, 8]) await expect(cells.nth(index)).toHaveText(/^\d+ s$/);
    // Moved at once: within the ambulance's 60 s turnout, 240 s travel and 300 s response.
    for (const index of [3, 6, 9]) await expect(cells.nth(index)).toHaveText("100.0 %");
    await expect(units.getByRole("table", { name: "Per unit type", exact: true }).getByRole("row", { name: /^Ambulance\b/ })).toBeVisible();
    for (const interval of ["Turnout", "Travel", "Response"]) {
      await expect(units.getByRole("img", { name: new RegExp(`^${interval} seconds .*${unit.call_sign}: p50 \\d+ s, p90 \\d+ s, target \\d+ s`) })).toBeVisible();
    }
    await noSeriousViolations(page, "main");
    await units.screenshot({ path: "test-results/screenshots/report-units.png" });
  });
});
