import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { callStatus, giveDispatchReason, incidentOf, openDashboard, readQueueRows, saveScreenshot, scrollQueueTo, showLatestFirst, simulateCalls, tilesOffline, untilSettled } from "./dashboard-helpers";

interface ListedCall { conversation_id: string; incident_id: string; caller_phone?: string; summary: string; status: string }
interface Incident { id: string; call_count: number; calls: ListedCall[] }

const TABLE = "e2e-incidents";
const CALLS = 40;

async function tableCalls(request: APIRequestContext, table: string): Promise<ListedCall[]> {
  const response = await request.get(`/api/calls?table_name=${table}&limit=100`);
  expect(response.status()).toBe(200);
  return (await response.json()).calls;
}

async function incident(request: APIRequestContext, id: string): Promise<Incident> {
  const response = await request.get(`/api/incidents/${id}`);
  expect(response.status()).toBe(200);
  return response.json();
}

/** The simulation's calls by incident once grouping has settled. */
async function settledIncidents(request: APIRequestContext, table = TABLE): Promise<Map<string, string[]>> {
  const calls = await untilSettled(
    () => tableCalls(request, table),
    (read) => JSON.stringify(read.map((call) => [call.conversation_id, call.incident_id]).sort()),
  );
  const byIncident = new Map<string, string[]>();
  for (const call of calls) byIncident.set(call.incident_id, [...(byIncident.get(call.incident_id) ?? []), call.conversation_id]);
  return byIncident;
}

const counted = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));
const callers = (count: number) => `${count} ${count === 1 ? "caller" : "callers"}`;

/**
 * The queue narrowed to one scenario's place, the latest received first, exercises hidden: other
 * tests' incidents (the database is shared by the whole run) stay out of the rows this test reads.
 */
async function showSimulationsOf(page: Page, scenario: string): Promise<void> {
  await page.getByTestId("queue-place").selectOption(scenario);
  await showLatestFirst(page);
  await page.getByLabel("Hide exercise calls").check();
}

/** An incident's detail, opened from its queue row (scrolled to): it stays in view whatever the queue redraws. */
async function openIncident(page: Page, id: string): Promise<Locator> {
  const row = page.locator(`.queue-item[data-incident-id="${id}"]`);
  await expect(async () => {
    await scrollQueueTo(page, row);
    await row.getByRole("button", { name: /show its calls/ }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const detail = page.locator(`.incident-detail[data-incident-id="${id}"]`);
  await expect(detail).toBeVisible();
  return detail;
}

test.describe("incidents on the dashboard", () => {
  test("a simulation with duplicates shows fewer queue rows than calls, each row's caller count is its calls, and its detail lists them", async ({ page, request }) => {
    // It reads its 40 calls' incidents in a queue that holds every other test's too.
    test.setTimeout(120_000);
    await simulateCalls(request, { scenario: "earthquake_sf", num_calls: CALLS, table_name: TABLE, seed: 4242 });
    const incidents = await settledIncidents(request);
    // The simulator reports about 30% of calls as duplicates of an earlier call's event.
    expect(incidents.size).toBeLessThan(CALLS);

    // A tall window: more rows in each view of the queue, fewer steps to read it.
    await page.setViewportSize({ width: 1280, height: 2400 });
    await tilesOffline(page);
    await openDashboard(page);
    await showSimulationsOf(page, "earthquake_sf");

    // Each incident of the simulation has one row, found by reading the queue a view at a time as a
    // dispatcher scrolls it, its badge counting exactly its incident's calls (GET /api/incidents/{id}).
    const details = new Map<string, Incident>();
    for (const id of incidents.keys()) {
      const detail = await incident(request, id);
      expect(detail.calls).toHaveLength(detail.call_count);
      details.set(id, detail);
    }
    await expect(async () => {
      const rows = await readQueueRows(page, (read) => [...incidents.keys()].every((id) => read.has(id)));
      for (const [id, detail] of details) expect(rows.get(id), `the row of incident ${id}`).toBe(callers(detail.call_count));
    }).toPass({ timeout: 60_000 });
    const largest = [...details.values()].reduce((most, detail) => (detail.call_count > most.call_count ? detail : most));
    expect(largest.call_count).toBeGreaterThan(1);

    // The board counts open incidents beside open calls, exactly as the server does.
    const board = await (await request.get("/api/live/board?exercises=hide")).json();
    await expect.poll(async () => counted(await page.getByTestId("incident-total").textContent())).toBe(board.open_incidents);
    expect(counted(await page.locator(".queue-total").textContent())).toBe(board.open.total);

    // The incident's detail: every call with its caller's number and summary; one opens on its own.
    const detail = await openIncident(page, largest.id);
    const latest = largest.calls.at(-1)!;
    // A compact row names its latest call (the summary is in the detail).
    await expect(page.locator(`.queue-item[data-incident-id="${largest.id}"]`)).toHaveAttribute("data-latest-call-id", latest.conversation_id);
    await expect(detail.locator(".incident-call")).toHaveCount(largest.call_count);
    for (const call of largest.calls) {
      const entry = detail.locator(`.incident-call[data-call-id="${call.conversation_id}"]`);
      await expect(entry.getByTestId("incident-call-caller")).toHaveText(call.caller_phone ?? "web call");
      await expect(entry.locator(".detail-summary")).toHaveText(call.summary);
    }
    // The map flew to the incident: one marker, its popup counting the same callers.
    const popup = page.locator(`.incident-popup[data-incident-id="${largest.id}"]`);
    await expect(popup).toContainText(`${largest.call_count} callers`);
    await saveScreenshot(page, "incident-detail");

    const first = largest.calls[0];
    await detail.locator(`.incident-call[data-call-id="${first.conversation_id}"]`).getByRole("button", { name: "Open call" }).click();
    await expect(detail.locator(".call-detail")).toContainText(first.conversation_id);

    // Dispatching the incident from its detail moves each of its calls, recorded in their history,
    // and its row to the second section.
    await detail.getByRole("group", { name: /Move incident/ }).getByRole("button", { name: "Dispatched", exact: true }).click();
    await giveDispatchReason(page);
    // The incident's own headline (the open call's detail below has one too).
    await expect(detail.locator(".detail-headline").first().locator(".status")).toHaveText("Dispatched");
    for (const call of largest.calls) {
      await expect.poll(async () => (await callStatus(request, call.conversation_id)).status).toBe("dispatched");
    }
    const dispatchedRow = page.locator(`.section-dispatched .queue-item[data-incident-id="${largest.id}"]`);
    await expect(async () => {
      await scrollQueueTo(page, dispatchedRow);
      await expect(dispatchedRow.locator(".status")).toHaveText("Dispatched", { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  });

  test("a dispatcher moves a call out into its own incident and merges it back from the incident's detail", async ({ page, request }) => {
    // Three reads of the whole queue (the incident, the split-off one, its absence at the end).
    test.setTimeout(120_000);
    const table = `${TABLE}-regroup`;
    await simulateCalls(request, { scenario: "hurricane_florida", num_calls: 30, table_name: table, seed: 77 });
    const incidents = await settledIncidents(request, table);
    // The simulator reports some calls as duplicates of an earlier call's event: one incident holds several.
    const grouped = [...incidents].find(([, calls]) => calls.length > 1);
    expect(grouped).toBeDefined();
    const before = await incident(request, grouped![0]);

    await tilesOffline(page);
    await openDashboard(page);
    await showSimulationsOf(page, "hurricane_florida");
    const detail = await openIncident(page, before.id);
    await expect(detail.locator(".incident-call")).toHaveCount(before.call_count);
    const moved = before.calls.at(-1)!;
    await detail.locator(`.incident-call[data-call-id="${moved.conversation_id}"]`).getByRole("button", { name: "Move out to its own incident" }).click();

    // The call now heads an incident of its own; the first incident has one caller less.
    await expect(detail.getByTestId("incident-caller-count")).toHaveText(callers(before.call_count - 1));
    await expect(detail.locator(".incident-call")).toHaveCount(before.call_count - 1);
    const own = await incidentOf(request, moved.conversation_id);
    expect(own).not.toBe(before.id);
    const ownRow = page.locator(`.queue-item[data-incident-id="${own}"]`);
    await expect(async () => {
      await scrollQueueTo(page, ownRow);
      await expect(ownRow.getByTestId("caller-count")).toHaveText("1 caller", { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const results = await new AxeBuilder({ page }).include(".incident-detail").analyze();
    expect(results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);

    // Merged back: the same calls as before; the split-off incident leaves the queue and the merge menu.
    await detail.getByLabel("Merge into this incident").selectOption(own);
    await detail.getByRole("button", { name: "Merge", exact: true }).click();
    await expect(detail.getByTestId("incident-caller-count")).toHaveText(callers(before.call_count));
    await expect(detail.locator(".incident-call")).toHaveCount(before.call_count);
    await expect(detail.locator(`option[value="${own}"]`)).toHaveCount(0);
    const after = await incident(request, before.id);
    expect(after.calls.map((call) => call.conversation_id).sort()).toEqual(before.calls.map((call) => call.conversation_id).sort());
    // Every row of the place's queue read, to its end: the split-off incident has none.
    await scrollQueueTo(page, ownRow);
    await expect(ownRow).toHaveCount(0);
  });

  test("a new caller about an open incident raises its caller count on the open dashboard without reloading", async ({ page, request }) => {
    const location = "e2e incident live, 12 Nowhere Lane";
    const post = async (id: string) => {
      const event = specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) });
      const response = await request.post("/api/voiceagent-webhook", { data: event });
      expect(response.status(), await response.text()).toBe(200);
    };
    await post("e2e-incident-live-1");
    await tilesOffline(page);
    await openDashboard(page);
    // The queue draws the rows in view: the latest received first puts this test's fresh incidents at the top.
    await showLatestFirst(page);
    await expect(page.getByTestId("feed-mode")).toHaveText("Live");
    const first = page.locator('.queue-item[data-latest-call-id="e2e-incident-live-1"]');
    await expect(first.getByTestId("caller-count")).toHaveText("1 caller");
    const incidentsBefore = counted(await page.getByTestId("incident-total").textContent());

    await post("e2e-incident-live-2");
    // Grouping may settle a moment later: the row of the incident whose latest call is the new one.
    const row = page.locator('.queue-item[data-latest-call-id="e2e-incident-live-2"]');
    await expect(row.getByTestId("caller-count")).toHaveText("2 callers", { timeout: 15_000 });
    await expect(row.locator(".new-badge")).toBeVisible();
    await expect(first).toHaveCount(0);
    const incidentId = await row.getAttribute("data-incident-id");
    expect((await incident(request, incidentId!)).calls.map((call) => call.conversation_id)).toEqual(["e2e-incident-live-1", "e2e-incident-live-2"]);
    await expect.poll(async () => counted(await page.getByTestId("incident-total").textContent())).toBe(incidentsBefore);
  });
});
