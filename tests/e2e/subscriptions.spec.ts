import { expect, test } from "@playwright/test";

test("an administrator subscribes a receiver, sees its secret once, pauses it, and is refused a private target", async ({ page }) => {
  await page.goto("/");
  await page.locator(".admin-menu summary").click();
  await page.getByTestId("webhooks-link").click();
  await expect(page).toHaveURL(/\/admin\/subscriptions$/);

  const form = page.getByRole("form", { name: "Add a subscription" });
  await form.getByLabel("Name").fill("County CAD");
  // An address literal: nothing to resolve, and no call arrives in this test, so nothing is sent.
  await form.getByLabel("URL").fill("https://93.184.216.34/mayday");
  await form.getByLabel("call.status_changed").uncheck();
  await form.getByLabel("Body").selectOption("eido");
  await form.getByRole("button", { name: "Add subscription" }).click();
  await expect(page.getByTestId("new-secret")).toHaveText(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("new-secret")).toHaveCount(0);

  const row = page.getByRole("row", { name: /County CAD/ });
  await expect(row).toContainText("delivering");
  await expect(row).toContainText("incident.created, incident.updated, incident.closed, incident.merged, note.created, call.created, call.updated, unit.state_changed, unit.assigned (eido)");
  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row).toContainText("paused");
  await expect(row.getByRole("button", { name: "Resume" })).toBeVisible();

  await form.getByLabel("Name").fill("Metadata");
  await form.getByLabel("URL").fill("http://169.254.169.254/latest/meta-data");
  await form.getByRole("button", { name: "Add subscription" }).click();
  await expect(page.getByRole("region", { name: "Webhook subscriptions" }).getByRole("alert")).toContainText("private, loopback or link-local");
  await expect(page.getByRole("row", { name: /Metadata/ })).toHaveCount(0);
});
