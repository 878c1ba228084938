import { expect, test } from "@playwright/test";

test("an administrator makes a service key for a person, sees its owner and last use, and removing the person revokes it", async ({ page, request }) => {
  const name = `Bridge owner ${Date.now()}`;
  await page.goto("/admin");
  const people = page.getByRole("form", { name: "Add a person" });
  await people.getByLabel("Name").fill(name);
  await people.getByLabel("Email").fill(`bridge-${Date.now()}@e2e.example.org`);
  await people.getByLabel("First password").fill("a first password of length");
  await people.getByLabel("Role").selectOption("dispatcher");
  await people.getByRole("button", { name: "Add person" }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();

  const keys = page.getByRole("form", { name: "Create an API key" });
  await keys.getByLabel("Name").fill("CAD bridge");
  await keys.getByLabel("Owner").selectOption({ label: `${name} (service key; Dispatcher)` });
  await keys.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!;
  await page.getByRole("button", { name: "I have stored it" }).click();

  const row = page.getByRole("table", { name: "API keys" }).getByRole("row", { name: new RegExp(`CAD bridge.*${name}`) });
  await expect(row).toContainText(`${name} (service key)`);
  await expect(row).toContainText("active");
  expect((await request.get("/api/calls?limit=1", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200);
  // Last use is written in the background: the list shows it once it is.
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole("cell").nth(6)).not.toHaveText("never");
  }).toPass();

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("row", { name: new RegExp(name) }).filter({ has: page.getByRole("button", { name: "Remove" }) }).getByRole("button", { name: "Remove" }).click();
  await expect(row).toContainText("revoked");
  expect((await request.get("/api/calls?limit=1", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);
});
