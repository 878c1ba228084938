import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { openDashboard, queuedIncident, saveScreenshot, tilesOffline } from "./dashboard-helpers";

/**
 * Precision on screen (docs/dashboard.md, "Map"; docs/geocoding.md): without GIS data the
 * gazetteer puts an address at its town's centre, and the dashboard says so beside each address,
 * draws the uncertainty, and a correction that takes a call out of its incident can be undone.
 */
const RUN = Date.now();
const FIRST = `e2e-precision-${RUN}-a`;
const SECOND = `e2e-precision-${RUN}-b`;

test("each call shows its own address and precision, the map its uncertainty, and a move out of the incident is undone in one step", async ({ page, request }) => {
  test.setTimeout(120_000);
  const at = Math.floor(Date.now() / 1000);
  for (const [id, location, offset] of [[FIRST, "2200 Collins Avenue, Miami Beach", 0], [SECOND, "2200 Collins Ave, Miami Beach", 60]] as const) {
    const event = specCallEvent(id, { location, eventTimestamp: at - 120 + offset });
    const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
    results.emergency_type = { value: "flooding", rationale: "e2e" };
    const posted = await request.post("/api/voiceagent-webhook", { data: event });
    expect(posted.status(), await posted.text()).toBe(200);
  }

  await tilesOffline(page);
  await openDashboard(page);
  const { incidentId, item } = await queuedIncident(page, request, SECOND);
  await expect(item).toContainText("town centre, about 3 km");
  await item.getByRole("button", { name: /show its calls/ }).click();
  const detail = page.locator(".incident-detail");
  await expect(detail.getByTestId("incident-caller-count")).toHaveText("2 callers");
  const rows = detail.getByTestId("incident-call-location");
  await expect(rows).toHaveText([
    "2200 Collins Avenue, Miami Beach (town centre, about 3 km; 0 m from the incident's centre)",
    "2200 Collins Ave, Miami Beach (town centre, about 3 km; 0 m from the incident's centre)",
  ]);
  // A town's centre is drawn as the circle it is, not as an address.
  await expect(page.locator("path.uncertainty-circle")).not.toHaveCount(0);

  // The second call, corrected to another address on the same street: out of the incident, said so.
  await page.locator(`.incident-call[data-call-id="${SECOND}"]`).getByRole("button", { name: "Open call" }).click();
  const call = page.locator(".call-detail");
  await expect(call.getByTestId("detail-precision")).toHaveText("town centre, about 3 km");
  await expect(call.getByTestId("detail-coordinates")).toHaveText("25.79, -80.13");
  await call.getByText("Correct type, severity or location").click();
  await call.getByLabel("Location", { exact: true }).fill("3100 Collins Avenue, Miami Beach");
  await call.getByRole("button", { name: "Save correction" }).click();
  await expect(call.getByTestId("moved-out-of")).toContainText(`Moved out of incident ${incidentId}`);
  await expect(detail.getByTestId("incident-caller-count")).toHaveText("1 caller");
  await saveScreenshot(page, "precision-moved-out", true);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);

  await call.getByRole("button", { name: "Undo" }).click();
  await expect(call.getByTestId("detail-location")).toHaveText("2200 Collins Ave, Miami Beach");
  await expect(detail.getByTestId("incident-caller-count")).toHaveText("2 callers");
  expect((await (await request.get(`/api/calls/${SECOND}`)).json()).incident_id).toBe(incidentId);
});
