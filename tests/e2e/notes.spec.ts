import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { specCallEvent } from "../../lib/voice-platforms/elevenlabs/sample-events";
import { giveDispatchReason, openDashboard, tilesOffline } from "./dashboard-helpers";

/**
 * A critical webhook call that has waited longer than any other open one (other tests' sample
 * calls are of 2026): the most urgent incident, the queue's first.
 */
async function mostUrgentCall(request: APIRequestContext, id: string, location: string): Promise<void> {
  // Received now, made 23 hours ago: the oldest plausible time (a day or more before receipt would be
  // queued by its receipt, docs/dashboard.md "Times"), so it ranks first.
  const event = specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) - 23 * 3600 });
  event.data.analysis.data_collection_results.severity.value = "Critical";
  const response = await request.post("/api/voiceagent-webhook", { data: event });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe("incident notes and the keyboard", () => {
  test("by keyboard alone a dispatcher opens the most urgent incident, dispatches it, adds a note and finds a call in the history", async ({ page, request }) => {
    const callId = `e2e-notes-keys-${Date.now()}`;
    const location = `e2e keyboard ${Date.now()}, 9 Quiet Lane`;
    await mostUrgentCall(request, callId, location);
    // Every pointer event the page sees: keyboard use makes none.
    await page.addInitScript(() => {
      const seen = window as unknown as { __pointer: number };
      seen.__pointer = 0;
      for (const type of ["pointerdown", "mousedown", "mouseup", "wheel"]) {
        window.addEventListener(type, () => void (seen.__pointer += 1), true);
      }
    });
    await tilesOffline(page);
    await openDashboard(page);
    const first = page.locator(".queue-list .queue-item").first();
    await expect(first).toHaveAttribute("data-latest-call-id", callId, { timeout: 15_000 });
    const queue = (await (await request.get("/api/live/incidents?limit=1")).json()) as { incidents: { id: string }[] };
    const incidentId = queue.incidents[0].id;
    await expect(first).toHaveAttribute("data-incident-id", incidentId);

    await page.keyboard.press("j");
    await expect(first.locator(".queue-title")).toBeFocused();
    await page.keyboard.press("Enter");
    const detail = page.locator(`.incident-detail[data-incident-id="${incidentId}"]`);
    // Loaded: its status actions are there for the key to press.
    await expect(detail.getByRole("group", { name: /Move incident/ })).toBeVisible();
    await page.keyboard.press("d");
    await giveDispatchReason(page);
    // Dispatched, the row moves to the second section once the server confirms: the first waiting row is then another.
    await expect(page.locator(`.section-dispatched .queue-item[data-incident-id="${incidentId}"] .status`)).toHaveText("Dispatched");

    const note = detail.getByLabel("Add a note");
    await expect(note).toBeVisible();
    await page.keyboard.press("w");
    await expect(note).toBeFocused();
    await page.keyboard.type("Engine 12 and Medic 4 sent; caller told to stay outside");
    await page.keyboard.press("Control+Enter");
    await expect(detail.locator(".note-text").first()).toHaveText("Engine 12 and Medic 4 sent; caller told to stay outside");
    await expect(detail.locator(".note-meta").first()).toContainText("Administrator");
    await expect(note).toHaveValue("");

    // Out of the field (Tab), then the history's search.
    await page.keyboard.press("Tab");
    await page.keyboard.press("/");
    await expect(page.locator('.history input[name="location"]')).toBeFocused();
    await page.keyboard.type(location);
    await page.keyboard.press("Enter");
    const row = page.locator(".history-table tbody tr");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(location);

    expect(await page.evaluate(() => (window as unknown as { __pointer: number }).__pointer)).toBe(0);
    const kept = (await (await request.get(`/api/incidents/${incidentId}/notes`)).json()) as { notes: { text: string }[] };
    expect(kept.notes.map((entry) => entry.text)).toEqual(["Engine 12 and Medic 4 sent; caller told to stay outside"]);
    expect(((await (await request.get(`/api/incidents/${incidentId}`)).json()) as { status: string }).status).toBe("dispatched");
  });

  test("the dashboard with an incident's detail and notes open has no WCAG 2.1 A/AA violation", async ({ page, request }) => {
    const callId = `e2e-notes-axe-${Date.now()}`;
    await mostUrgentCall(request, callId, `e2e axe ${Date.now()}, 4 Bright Street`);
    await tilesOffline(page);
    await openDashboard(page);
    // The most urgent call: first in the default order.
    const item = page.locator(`.queue-item[data-latest-call-id="${callId}"]`);
    await item.locator(".queue-title").click();
    const detail = page.locator(".incident-detail");
    await detail.getByLabel("Add a note").fill("Checked with the caller: two people inside");
    await detail.getByRole("button", { name: "Add note" }).click();
    await expect(detail.locator(".note-text")).toHaveText(["Checked with the caller: two people inside"]);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  });
});
