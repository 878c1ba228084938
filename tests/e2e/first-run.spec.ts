import { expect, type Page, test } from "@playwright/test";
import { openDrawer } from "./dashboard-helpers";

/**
 * A new user's first run on the embedded database (npm install && npm start): the dashboard offers
 * to create the first administrator, who adds a dispatcher and a trainer; each signs in and sees
 * what their role may do. The server refuses what the page hides.
 */
test.describe.configure({ mode: "serial" });

const password = "a long enough password";
const people = {
  admin: { name: "Ada Admin", email: "ada@centre.example.org" },
  dispatcher: { name: "Dana Dispatcher", email: "dana@centre.example.org" },
  trainer: { name: "Theo Trainer", email: "theo@centre.example.org" },
};

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test("until an administrator exists, nothing but first-run set-up and health answers", async ({ page, request }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Mayday");
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect((await health.json()).status).toBe("ok");
  expect((await request.get("/api/calls")).status()).toBe(401);
  expect((await request.get("/api/setup")).status()).toBe(200);
});

test("the first administrator adds a dispatcher and a trainer", async ({ page }) => {
  await page.goto("/setup");
  await page.getByLabel("Your name").fill(people.admin.name);
  await page.getByLabel("Email").fill(people.admin.email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create the first administrator" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("signed-in-person")).toContainText(people.admin.name);
  await expect(page.getByTestId("signed-in-role")).toHaveText("Administrator");
  // The People list shows the new administrator at once, without a reload.
  await expect(page.locator(`tr[data-user-email="${people.admin.email}"]`)).toContainText(people.admin.name);

  for (const [role, person] of [["dispatcher", people.dispatcher], ["trainer", people.trainer]] as const) {
    const form = page.getByRole("form", { name: "Add a person" });
    await form.getByLabel("Name").fill(person.name);
    await form.getByLabel("Email").fill(person.email);
    await form.getByLabel("First password").fill(password);
    await form.getByLabel("Role").selectOption(role);
    await form.getByRole("button", { name: "Add person" }).click();
    await expect(page.locator(`tr[data-user-email="${person.email}"]`)).toContainText(person.name);
  }
  // Set-up is over: the page now sends people to sign in.
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await signOut(page);
});

test("the dispatcher signs in: dispatch controls, no simulation, no administration", async ({ page }) => {
  await signIn(page, people.dispatcher.email);
  await expect(page.getByTestId("signed-in-person")).toContainText(people.dispatcher.name);
  await expect(page.getByTestId("signed-in-role")).toHaveText("Dispatcher");
  await expect(page.getByRole("heading", { name: "Incident queue" })).toBeVisible();
  await expect(page.getByRole("form", { name: /simulat/i })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "People and keys" })).toHaveCount(0);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
  // The server refuses what the page hides: a simulation from the dispatcher's session.
  const refused = await page.evaluate(async () => {
    const response = await fetch("/api/simulate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scenario: "la_wildfire", num_calls: 1, table_name: "calls" }),
    });
    return { status: response.status, code: (await response.json()).error_code };
  });
  expect(refused).toEqual({ status: 403, code: "FORBIDDEN" });
  await signOut(page);
});

test("the trainer signs in: simulation and exercises, no administration", async ({ page }) => {
  await signIn(page, people.trainer.email);
  await expect(page.getByTestId("signed-in-role")).toHaveText("Trainer");
  await openDrawer(page, "training");
  await expect(page.getByRole("heading", { name: "Training exercise" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Start a training exercise" })).toBeVisible();
  await expect(page.getByRole("link", { name: "People and keys" })).toHaveCount(0);
  await signOut(page);
  // Signed out: the session is gone on the server too.
  expect((await page.request.get("/api/calls")).status()).toBe(401);
});

test("the administrator sees every step in the audit trail", async ({ page }) => {
  await signIn(page, people.admin.email);
  await page.getByText("Admin", { exact: true }).click();
  await page.getByRole("link", { name: "Audit trail" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  const actions = page.locator("tbody tr");
  await expect(actions.first()).toBeVisible();
  for (const action of ["user.created", "session.signed_in", "session.signed_out"]) {
    await expect(page.locator(`tr[data-action="${action}"]`).first()).toBeVisible();
  }
  await expect(page.locator('tr[data-action="user.created"]')).toHaveCount(3);
});
