import { expect, test } from "@playwright/test";
import { E2E_VAPI_SECRET } from "../../playwright.config";
import { openDashboard, openDrawer, tilesOffline } from "./dashboard-helpers";

/**
 * A dispatcher's hand on a Vapi call still on the line (docs/webhook.md, "Live calls"): an
 * instruction and a transfer from the call detail, each saying what became of it. The call's
 * control URL is on a host that is not Vapi's, so nothing leaves the machine: both are refused
 * before any connection, and the detail says why (the instruction is kept for incident_status).
 */
test("a live Vapi call: instruction and transfer from the call detail, with their outcome", async ({ page, request }) => {
  const id = `e2e-live-control-${Date.now()}`;
  const status = { message: { type: "status-update", status: "in-progress", timestamp: Date.now(), call: { id, assistantId: "asst_e2e", monitor: { controlUrl: `https://control.example.invalid/${id}/control` } } } };
  const posted = await request.post("/api/voiceagent-webhook/vapi", { data: status, headers: { "x-vapi-secret": E2E_VAPI_SECRET } });
  expect(posted.status(), await posted.text()).toBe(200);

  await tilesOffline(page);
  await openDashboard(page);
  await openDrawer(page, "history");
  await page.locator(`.history-table tr[data-call-id="vapi:${id}"]`).getByRole("button").click();
  const panel = page.locator(".call-detail");
  await expect(panel.getByTestId("on-line-badge")).toBeVisible();

  const instruction = panel.getByRole("form", { name: "Instruction for the agent" });
  await instruction.getByLabel("Instruction for the agent").fill("Ask whether anyone is still inside");
  await instruction.getByRole("button", { name: "Send to agent" }).click();
  await expect(instruction.getByRole("status")).toContainText("Not pushed: the control URL's host control.example.invalid is not under vapi.ai");
  await expect(instruction.getByRole("status")).toContainText("the agent gets it when it next asks");

  const transfer = panel.getByRole("form", { name: "Transfer caller to (E.164)" });
  await transfer.getByLabel("Transfer caller to (E.164)").fill("not a number");
  await transfer.getByRole("button", { name: "Transfer caller" }).click();
  await expect(transfer.getByRole("status")).toContainText("E.164");
  await transfer.getByLabel("Transfer caller to (E.164)").fill("+16155550100");
  await transfer.getByRole("button", { name: "Transfer caller" }).click();
  await expect(transfer.getByRole("status")).toContainText("Transfer failed: the control URL's host control.example.invalid is not under vapi.ai");
});
