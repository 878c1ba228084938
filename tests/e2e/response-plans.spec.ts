import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./dashboard-helpers";

/**
 * The response plans' page (docs/units.md, "Response plans"): every plan listed with the default's
 * reason; one edited by keyboard, a plan the server refuses shown with why and left as it was.
 * It edits a plan no other spec reads (a power outage, moderate: by default no unit).
 */
test("an administrator edits a response plan by keyboard; a refused plan says why and changes nothing", async ({ page, request }) => {
  await page.goto("/admin/plans");
  const form = page.getByRole("form", { name: "Plan for power outage, moderate" });
  const field = form.getByLabel("moderate");
  await expect(field).toHaveValue("");
  await expect(page.getByRole("row", { name: /power outage/ })).toContainText("An outage needs a unit only when a life depends on power");

  await field.fill("patrol 1, submarine 2");
  await field.press("Enter");
  await expect(form.getByRole("alert")).toContainText("type one of engine");
  const plans = async () => ((await (await request.get("/api/response-plans")).json()) as { plans: { emergency_type: string; severity: string; slots: unknown[]; source: string }[] }).plans;
  const outage = async () => (await plans()).find((plan) => plan.emergency_type === "power_outage" && plan.severity === "moderate");
  expect(await outage()).toMatchObject({ source: "default", slots: [] });

  await field.fill("patrol 1");
  await field.press("Enter");
  await expect(form).toContainText("set by");
  await expect(form.getByRole("alert")).toHaveCount(0);
  expect(await outage()).toMatchObject({ source: "centre", slots: [{ type: "patrol", count: 1 }] });
  await expectNoAxeViolations(page);
});
