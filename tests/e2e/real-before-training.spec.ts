import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { E2E_VAPI_SECRET } from "../../playwright.config";
import { CLOSED_AS_HANDLED, expectNoAxeViolations, incidentOf, openDashboard, recordTones, scrollQueueTo, tilesOffline, untilSettled } from "./dashboard-helpers";

/**
 * Real before training, and live calls everywhere (docs/dashboard.md, "Incidents", "Alerts" and
 * "Live calls"; issue 52 acceptances 2 and 4): with 300 open exercise incidents shown, a real
 * high-severity call is the first waiting row of its severity among real incidents, above the
 * exercise's section, and its alert sounds in the real tone within a second, in a strip apart
 * from the exercise's; a live report_emergency shows "On the line" on its queue row within a
 * second, and "locating…" until its location arrives.
 */
test.describe.configure({ mode: "serial" });

/** The two kinds' tones as use-alerts.ts plays them (TONES): a real alert's first note, a training one's. */
const REAL_FIRST_NOTE = 880;
const TRAINING_FIRST_NOTE = 440;

interface Tone { at: number; frequency: number }

/** Every note the page played (the tone recorder's), with when and at what frequency. */
function notes(page: Page): Promise<Tone[]> {
  return page.evaluate(() => {
    const recorded = window as unknown as { __noteTimes: number[]; __noteFrequencies: number[] };
    return recorded.__noteTimes.map((at, index) => ({ at, frequency: recorded.__noteFrequencies[index] }));
  });
}

async function openTraining(request: APIRequestContext): Promise<number> {
  const total = async (section: string) =>
    ((await (await request.get(`/api/live/incidents?kind=training&section=${section}&limit=1`)).json()) as { total: number }).total;
  return (await total("waiting")) + (await total("dispatched"));
}

let exerciseId = "";

test.afterAll(async ({ request }) => {
  // The exercise's end closes its incidents: later specs see the queue as before.
  if (exerciseId) await request.post(`/api/exercises/${exerciseId}/stop`);
});

test("with 300 open exercise incidents shown, a real high call is the first real waiting row of its severity and sounds its own tone within a second", async ({ page, request }) => {
  test.setTimeout(240_000);
  // Before the page opens, the real picture other specs left is quieted: their critical and high
  // incidents still waiting are resolved (this call is then the only one of its severity, and no
  // reminder of theirs comes due during the exercise), and every real alert is acknowledged (an
  // alert the page found on opening would sound the real tone before the exercise's).
  const waiting = (await (await request.get("/api/live/incidents?kind=real&section=waiting&limit=500")).json()) as { incidents: { id: string; severity: string }[] };
  for (const incident of waiting.incidents.filter((row) => row.severity !== "moderate")) {
    expect((await request.patch(`/api/incidents/${incident.id}`, { data: CLOSED_AS_HANDLED })).status()).toBe(200);
  }
  expect((await request.post("/api/live/alerts/acknowledge", { data: { kind: "real" } })).status()).toBe(200);
  const tones = await recordTones(page);
  await tilesOffline(page);
  await openDashboard(page);
  await expect(page.getByTestId("feed-mode")).toHaveText("Live");

  // An exercise releasing about 30 calls a second, paused once 300 of its incidents are open: it stays shown.
  const created = await request.post("/api/exercises", {
    data: { scenario: "la_wildfire", duration_minutes: 60, num_calls: 2000, shape: "steady", speed: 60, abandoned_share: 0, start: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  exerciseId = ((await created.json()) as { id: string }).id;
  await expect.poll(() => openTraining(request), { timeout: 120_000, intervals: [1_000] }).toBeGreaterThanOrEqual(300);
  expect((await request.post(`/api/exercises/${exerciseId}/pause`)).status()).toBe(200);

  // The exercise's alerts came while the page was open: their strip, in the training tone.
  const trainingStrip = page.getByTestId("alert-strip-training");
  await expect(trainingStrip).toBeVisible({ timeout: 15_000 });
  await expect.poll(async () => (await notes(page)).some((note) => note.frequency === TRAINING_FIRST_NOTE), { timeout: 15_000 }).toBe(true);
  expect((await notes(page)).some((note) => note.frequency === REAL_FIRST_NOTE)).toBe(false);

  // Grouping settled, the page is opened afresh, as a dispatcher comes on shift: the picture is quiet (no surge pacing).
  await untilSettled(() => openTraining(request));
  await openDashboard(page);
  await expect(page.getByTestId("feed-mode")).toHaveText("Live");
  await expect(trainingStrip).toBeVisible({ timeout: 15_000 });
  await expect(page.locator(".section-waiting.kind-training .queue-item").first()).toBeVisible();
  const before = await tones();

  // A real high call: the webhook answers once it is stored.
  const callId = `e2e-real-high-${Date.now()}`;
  const event = specCallEvent(callId, { location: "e2e real high call, 4 Harbour Steps", eventTimestamp: Math.floor(Date.now() / 1000) });
  event.data.analysis.data_collection_results.severity.value = "High";
  expect((await request.post("/api/voiceagent-webhook", { data: event })).status()).toBe(200);
  const stored = Date.now();
  const incidentId = await incidentOf(request, callId);

  // Its alert in the real strip, not the training one, sounding the real tone within a second of being stored.
  await expect.poll(async () => (await notes(page)).slice(before).some((note) => note.frequency === REAL_FIRST_NOTE), { timeout: 15_000 }).toBe(true);
  const realTone = (await notes(page)).slice(before).find((note) => note.frequency === REAL_FIRST_NOTE)!;
  expect(realTone.at - stored).toBeLessThanOrEqual(1_000);
  await expect(page.locator(`[data-testid="alert-strip"] .alert-entry[data-incident-id="${incidentId}"]`)).toBeVisible();
  await expect(trainingStrip.locator(`.alert-entry[data-incident-id="${incidentId}"]`)).toHaveCount(0);
  // The real strip comes first on the page, the training one after it.
  const [realBox, trainingBox] = [await page.getByTestId("alert-strip").boundingBox(), await trainingStrip.boundingBox()];
  expect(realBox!.y).toBeLessThan(trainingBox!.y);

  // Its row: the server's first waiting high incident among real ones, drawn at that place of the
  // real waiting section (below the real critical ones), which sits above the training sections.
  const real = (await (await request.get("/api/live/incidents?kind=real&section=waiting&limit=500")).json()) as { incidents: { id: string; severity: string }[] };
  const firstHigh = real.incidents.findIndex((incident) => incident.severity === "high");
  expect(real.incidents[firstHigh].id).toBe(incidentId);
  expect(real.incidents.slice(0, firstHigh).every((incident) => incident.severity === "critical")).toBe(true);
  const row = page.locator(`.section-waiting.kind-real .queue-item[data-incident-id="${incidentId}"]`);
  await scrollQueueTo(page, row);
  await expect(row).toHaveAttribute("data-index", String(firstHigh));
  const [rowBox, trainingSection] = [await row.boundingBox(), await page.locator(".section-waiting.kind-training").boundingBox()];
  expect(rowBox!.y).toBeLessThan(trainingSection!.y);
  expect(await openTraining(request)).toBeGreaterThanOrEqual(300);
  await expectNoAxeViolations(page);

  // Ack all of the training kind leaves the real alert standing.
  await trainingStrip.getByRole("button", { name: /Ack all/ }).click();
  await expect(trainingStrip).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator(`[data-testid="alert-strip"] .alert-entry[data-incident-id="${incidentId}"]`)).toBeVisible();
  await request.patch(`/api/incidents/${incidentId}`, { data: CLOSED_AS_HANDLED });
});

/** One report_emergency from a Vapi assistant on a live call (the app server's Vapi credential). */
async function reportEmergency(request: APIRequestContext, callId: string, args: Record<string, string>): Promise<void> {
  const response = await request.post("/api/live-calls/vapi", {
    headers: { "x-vapi-secret": E2E_VAPI_SECRET },
    data: {
      message: {
        type: "tool-calls",
        timestamp: Date.now(),
        // A number of this call's own: calls from one callback number within the window are one
        // incident (docs/incidents.md), and other specs' calls use the sample's number.
        call: { id: callId, assistantId: "asst_e2e", customer: { number: `+1615${callId.replace(/\D/g, "").slice(-7).padStart(7, "0")}` } },
        toolCallList: [{ id: `tc-${Date.now()}`, type: "function", function: { name: "report_emergency", arguments: JSON.stringify(args) } }],
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test("a live report_emergency shows On the line on its queue row within a second, and locating… until its location arrives", async ({ page, request }) => {
  await tilesOffline(page);
  // The latest received first, as this browser remembers it: the live call's real incident is the real waiting section's first row.
  await page.addInitScript(() => localStorage.setItem("mayday.queue.sort", "received"));
  await openDashboard(page);
  await expect(page.getByTestId("feed-mode")).toHaveText("Live");
  await expect(page.getByTestId("queue-sort")).toHaveValue("received");
  // The real waiting section read (it may hold no incident yet).
  await expect(page.getByTestId("section-count-waiting")).toBeVisible();

  const callId = `e2e-live-${Date.now()}`;
  await reportEmergency(request, callId, { emergency_type: "structure_fire", severity: "moderate", details: "Smoke from the roof, the caller is outside" });
  const row = page.locator(`.queue-item[data-latest-call-id="vapi:${callId}"]`);
  await expect(row.getByTestId("on-line-badge")).toBeVisible({ timeout: 1_000 });
  await expect(row.getByTestId("on-line-badge")).toContainText("On the line");
  await expect(row.locator(".queue-location")).toHaveText("locating…");
  // The running time counts while the caller talks.
  const first = await row.locator(".on-line-time").textContent();
  await expect(row.locator(".on-line-time")).not.toHaveText(first!, { timeout: 5_000 });

  // Opened: the incident and the call say the same, and the call's duration counts.
  await row.locator(".queue-title").click();
  const detail = page.locator(".incident-detail");
  await expect(detail.getByTestId("on-line-badge").first()).toBeVisible();
  await expect(detail.locator(".incident-where")).toContainText("locating…");
  await detail.getByRole("button", { name: "Open call" }).first().click();
  await expect(page.getByTestId("detail-duration")).toContainText("so far");
  await expectNoAxeViolations(page);

  // The agent says where: the row shows the place, still on the line.
  await reportEmergency(request, callId, { location: "e2e live call, 31 Ferryman Row" });
  const located = page.locator(`.queue-item[data-latest-call-id="vapi:${callId}"]`);
  await expect(located.locator(".queue-location")).toContainText("31 Ferryman Row", { timeout: 15_000 });
  await expect(located.getByTestId("on-line-badge")).toBeVisible();
  await request.patch(`/api/incidents/${await incidentOf(request, `vapi:${callId}`)}`, { data: CLOSED_AS_HANDLED });
});
