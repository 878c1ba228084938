import { expect, test, type APIResponse } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";

/** Every kind of response the server gives: pages, their assets, API answers and errors. */
const requests: [string, string][] = [
  ["GET", "/"],
  ["GET", "/login"],
  ["GET", "/no-such-page"],
  ["GET", "/api/health"],
  ["GET", "/api/no-such-endpoint"],
  ["PUT", "/api/health"],
  ["GET", "/api/session"],
  ["POST", "/api/session"],
];

function expectSecurityHeaders(response: APIResponse, path: string, what: string): void {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-powered-by"], what).toBeUndefined();
  if (path.startsWith("/api/")) {
    // An API answer is never a document: it may load nothing and carries no page's headers.
    expect(csp, what).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers["permissions-policy"], what).toBeUndefined();
    return;
  }
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org");
  expect(csp, what).not.toContain("unsafe-eval");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["cross-origin-opener-policy"], what).toBe("same-origin");
}

test("every response carries the security headers and no internals", async ({ page, request }) => {
  const assets = new Set<string>();
  page.on("response", (response) => assets.add(new URL(response.url()).pathname));
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/login");
  await expect(page.getByLabel("Password")).toBeVisible();
  expect(violations).toEqual([]);

  const scripts = [...assets].filter((pathname) => pathname.startsWith("/_next/static/"));
  expect(scripts.length).toBeGreaterThan(0);
  for (const [method, path] of [...requests, ...scripts.map((pathname) => ["GET", pathname] as [string, string])]) {
    const response = await request.fetch(path, { method, data: method === "POST" ? "not json" : undefined });
    expectSecurityHeaders(response, path, `${method} ${path} (${response.status()})`);
    if (path.startsWith("/api/") && response.status() >= 400) {
      const text = await response.text();
      expect(text, `${method} ${path}`).not.toMatch(/\bat \S+ \(|node_modules|Error:/);
    }
  }
});

test("405 answers JSON with Allow on the real server", async ({ request }) => {
  const response = await request.fetch("/api/health", { method: "DELETE" });
  expect(response.status()).toBe(405);
  expect(response.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  expect(await response.json()).toMatchObject({ error_code: "METHOD_NOT_ALLOWED" });
});

test("the login page signs in and only returns to paths on this site", async ({ page }) => {
  await page.goto("/login?next=//evil.example/");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/);
});

test("the session cookie is HttpOnly and SameSite, and a wrong password says nothing more", async ({ request }) => {
  const wrong = await request.post("/api/session", { data: { email: E2E_ADMIN.email, password: "not the password" } });
  expect(wrong.status()).toBe(401);
  expect(JSON.stringify(await wrong.json())).not.toContain("not the password");
  const right = await request.post("/api/session", { data: E2E_ADMIN });
  expect(right.status()).toBe(200);
  const cookie = right.headers()["set-cookie"] ?? "";
  expect(cookie).toMatch(/^mayday\.session_token=/);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  // Plain HTTP here: Secure only over HTTPS.
  expect(cookie).not.toMatch(/;\s*Secure/i);
});

test("a spoofed x-forwarded-for does not buy a fresh limit", async ({ request }) => {
  const signIn = (i: number) =>
    request.post("/api/session", { headers: { "x-forwarded-for": `203.0.113.${i}` }, data: { email: `nobody-${i}@example.org`, password: "x" } });
  // The session endpoint allows 10 a minute per client in clock-aligned windows. Start with time
  // to spare in the window and count from what the server says is left, not from what earlier
  // tests are assumed to have used: a window boundary or another order made this flaky.
  let first = await signIn(0);
  const reset = Number(first.headers()["ratelimit-reset"]);
  if (reset < 3) {
    await new Promise((resolve) => setTimeout(resolve, reset * 1000 + 100));
    first = await signIn(0);
  }
  expect(first.status()).toBe(401);
  expect(first.headers()["ratelimit-limit"]).toBe("10");
  const left = Number(first.headers()["ratelimit-remaining"]);
  const statuses: number[] = [];
  for (let i = 1; i <= left + 2; i++) statuses.push((await signIn(i)).status());
  expect(statuses).toEqual([...Array<number>(left).fill(401), 429, 429]);
});
