import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callback } from "@/app/api/auth/callback/[provider]/route";
import { GET as me } from "@/app/api/me/route";
import { GET as startSso } from "@/app/api/session/sso/route";
import { resetAuthForTests } from "@/lib/access/auth";
import { createUser } from "@/lib/access/people";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { testAdmin } from "../support/auth";
import { type IdentityProvider, startIdentityProvider } from "../support/identity-provider";
import { TEST_PASSWORD } from "../support/people";

const APP = "http://localhost:3000";
const cookiePairs = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);

/** Follows the provider's redirects (keeping its cookies) until it sends the browser back to the app. */
async function throughProvider(location: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = location;
  for (let hop = 0; hop < 10 && !url.startsWith(APP); hop++) {
    const response = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } });
    for (const pair of cookiePairs(response)) {
      const [name, ...value] = pair.split("=");
      jar.set(name, value.join("="));
    }
    const next = response.headers.get("location");
    if (!next) throw new Error(`the provider stopped at ${url}: ${response.status} ${await response.text()}`);
    url = new URL(next, url).toString();
  }
  return url;
}

/** The whole browser path: Mayday's start, the provider, Mayday's callback. */
async function signInWithProvider(next = "/"): Promise<Response> {
  const started = await startSso(new Request(`${APP}/api/session/sso?next=${encodeURIComponent(next)}`), undefined);
  expect(started.status).toBe(302);
  const back = await throughProvider(started.headers.get("location")!);
  return callback(new Request(back, { headers: { cookie: cookiePairs(started).join("; ") } }), { params: Promise.resolve({ provider: "oidc" }) });
}

async function auditRows(action: string) {
  const db = await getDb();
  return db.$queryRaw<{ actor_kind: string; actor_id: string | null; after: { method?: string; reason?: string; subject?: string; linked?: boolean } }[]>`
    SELECT actor_kind, actor_id, after FROM audit_events WHERE action = ${action} ORDER BY at, id`;
}

describe("sign-in with the centre's OpenID Connect provider", () => {
  let idp: IdentityProvider;

  beforeAll(async () => {
    idp = await startIdentityProvider(`${APP}/api/auth/callback/oidc`);
    Object.assign(process.env, { AUTH_URL: APP, OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_NAME: "Stand-in IdP" });
    resetConfigForTests();
    resetAuthForTests();
  });

  afterAll(async () => {
    for (const name of ["AUTH_URL", "OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_NAME"]) delete process.env[name];
    resetConfigForTests();
    resetAuthForTests();
    await idp.close();
  });

  it("signs in a person an administrator created, with their role, and returns to the page asked for", async () => {
    const email = `dispatcher-${randomUUID()}@example.org`;
    const person = await createUser({ name: "Dana Dispatcher", email, password: TEST_PASSWORD, role: "dispatcher" }, testAdmin);
    idp.signInAs({ email, name: "Dana D. (directory name)" });

    const finished = await signInWithProvider("/exercises/x");
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).toMatch(/\/exercises\/x$/);
    const session = cookiePairs(finished).find((pair) => pair.startsWith("mayday.session_token="));
    expect(session).toBeDefined();
    expect(finished.headers.getSetCookie().find((cookie) => cookie.startsWith("mayday.session_token="))).toMatch(/HttpOnly/i);

    const who = await me(new Request(`${APP}/api/me`, { headers: { cookie: session! } }), undefined);
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ kind: "user", id: person.id, email, role: "dispatcher", name: "Dana Dispatcher" });
    const signedIn = (await auditRows("session.signed_in")).filter((row) => row.actor_id === person.id);
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0].after.method).toBe("oidc");

    // The second time the linked account is used: the same person, no second account.
    const again = await signInWithProvider();
    expect(cookiePairs(again).some((pair) => pair.startsWith("mayday.session_token="))).toBe(true);
    const db = await getDb();
    const accounts = await db.$queryRaw<{ provider_id: string }[]>`SELECT provider_id FROM accounts WHERE user_id = ${person.id} ORDER BY provider_id`;
    expect(accounts.map((row) => row.provider_id)).toEqual(["credential", "oidc"]);
  });

  it("refuses someone the provider knows but Mayday's administrators did not create, and records it", async () => {
    const email = `stranger-${randomUUID()}@example.org`;
    idp.signInAs({ email, name: "Somebody Else" });
    const failedBefore = (await auditRows("session.sign_in_failed")).length;
    const finished = await signInWithProvider();
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).toMatch(/\/login\?sso_error=1/);
    expect(cookiePairs(finished).filter((pair) => pair.startsWith("mayday.session_token=") && pair.length > "mayday.session_token=".length)).toEqual([]);
    const db = await getDb();
    const [{ n }] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM users WHERE email = ${email}`;
    expect(Number(n)).toBe(0);
    const failed = await auditRows("session.sign_in_failed");
    expect(failed).toHaveLength(failedBefore + 1);
    expect(failed.at(-1)).toMatchObject({ actor_kind: "anonymous", after: { method: "oidc" } });
  });

  it("refuses a provider account that shares an administrator's email the provider has not verified, and links nothing", async () => {
    const email = `admin-${randomUUID()}@example.org`;
    const administrator = await createUser({ name: "Ada Admin", email, password: TEST_PASSWORD, role: "admin" }, testAdmin);
    // Anyone may type an administrator's address into their own directory profile.
    idp.signInAs({ email, name: "Mallory", subject: `mallory-${randomUUID()}`, emailVerified: false });
    const failedBefore = (await auditRows("session.sign_in_failed")).length;

    const finished = await signInWithProvider();
    expect(finished.headers.get("location")).toMatch(/\/login\?/);
    expect(cookiePairs(finished).some((pair) => /^mayday\.session_token=.+/.test(pair))).toBe(false);
    const db = await getDb();
    const accounts = await db.$queryRaw<{ provider_id: string }[]>`SELECT provider_id FROM accounts WHERE user_id = ${administrator.id}`;
    expect(accounts.map((row) => row.provider_id)).toEqual(["credential"]);
    expect((await auditRows("session.signed_in")).filter((row) => row.actor_id === administrator.id)).toEqual([]);
    const failed = await auditRows("session.sign_in_failed");
    expect(failed).toHaveLength(failedBefore + 1);
    expect(failed.at(-1)).toMatchObject({ actor_kind: "anonymous", actor_id: null, after: { method: "oidc" } });
  });

  it("audits a new link with the provider's subject, and keeps signing in a subject linked before", async () => {
    const email = `dispatcher-${randomUUID()}@example.org`;
    const person = await createUser({ name: "Lin Linked", email, password: TEST_PASSWORD, role: "dispatcher" }, testAdmin);
    const subject = `employee-${randomUUID()}`;
    idp.signInAs({ email, name: "Lin", subject });
    expect(cookiePairs(await signInWithProvider()).some((pair) => /^mayday\.session_token=.+/.test(pair))).toBe(true);

    // Linked now: the subject is who it is, whatever the provider says of the email later.
    idp.signInAs({ email, name: "Lin", subject, emailVerified: false });
    expect(cookiePairs(await signInWithProvider()).some((pair) => /^mayday\.session_token=.+/.test(pair))).toBe(true);

    const rows = (await auditRows("session.signed_in")).filter((row) => row.actor_id === person.id);
    expect(rows.map((row) => row.after)).toEqual([
      { method: "oidc", subject, linked: true },
      { method: "oidc", subject },
    ]);
  });

  it("refuses a callback whose state is not the browser's own (a forged or replayed return)", async () => {
    const email = `dispatcher-${randomUUID()}@example.org`;
    await createUser({ name: "Forged", email, password: TEST_PASSWORD, role: "dispatcher" }, testAdmin);
    idp.signInAs({ email, name: "Forged" });
    const started = await startSso(new Request(`${APP}/api/session/sso`), undefined);
    const back = await throughProvider(started.headers.get("location")!);
    // Another browser (no state cookie) presents the code.
    const finished = await callback(new Request(back), { params: Promise.resolve({ provider: "oidc" }) });
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).toMatch(/\/login\?sso_error=1/);
    expect(cookiePairs(finished).some((pair) => /^mayday\.session_token=.+/.test(pair))).toBe(false);
  });

  it.each(["//evil.example/", "/\t/evil.example/", "/\\evil.example/"])("never returns to another site (next=%j)", async (next) => {
    const started = await startSso(new Request(`${APP}/api/session/sso?next=${encodeURIComponent(next)}`), undefined);
    const email = `dispatcher-${randomUUID()}@example.org`;
    await createUser({ name: "Elsewhere", email, password: TEST_PASSWORD, role: "viewer" }, testAdmin);
    idp.signInAs({ email, name: "Elsewhere" });
    const back = await throughProvider(started.headers.get("location")!);
    const finished = await callback(new Request(back, { headers: { cookie: cookiePairs(started).join("; ") } }), { params: Promise.resolve({ provider: "oidc" }) });
    // As a browser reads a Location: tabs and newlines stripped, backslashes as slashes.
    expect(new URL(finished.headers.get("location")!, APP).origin).toBe(APP);
  });
});

describe("without a provider configured", () => {
  it("answers 404 in the documented format", async () => {
    const response = await startSso(new Request(`${APP}/api/session/sso`), undefined);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_code: "NOT_FOUND" });
  });
});
