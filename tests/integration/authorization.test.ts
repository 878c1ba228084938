import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_KEY_ACTOR } from "@/lib/access/actor";
import { createKey, revokeKey } from "@/lib/access/keys";
import { removeUser, setUserRole } from "@/lib/access/people";
import { type Permission, ROLE_PERMISSIONS, ROLES, type Role, satisfies } from "@/lib/access/roles";
import { getConfig } from "@/lib/config";
import type { Endpoint, Method } from "@/lib/contract/endpoint";
import { endpoints, type RouteName } from "@/lib/http/endpoints";
import { errorBodySchemas } from "@/lib/http/error-schemas";
import { guardRoute, json } from "@/lib/http/respond";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { TEST_API_KEY } from "@/tests/support/auth";
import { type SignedInPerson, signedIn } from "@/tests/support/people";

/**
 * Every endpoint of the registry x every role (and keys): the registry's permission is what the
 * server enforces. The handler behind the guard is a stand-in answering 200, so what is measured
 * is the guard alone; the domain's own narrowing (a trainer and real calls) is tested below.
 */

const call = async (name: RouteName, method: Method, headers: Record<string, string>) => {
  const endpoint: Endpoint = endpoints[name];
  const path = endpoint.path.replace(/:(\w+)/g, "x");
  const route = guardRoute(name, async () => json({ reached: true }));
  return route(new Request(`http://localhost${path}`, { method, headers }), { params: Promise.resolve({ id: "x" }) });
};

const operations = (Object.entries(endpoints) as [RouteName, Endpoint][]).flatMap(([name, endpoint]) =>
  (Object.entries(endpoint.methods) as [Method, NonNullable<Endpoint["methods"][Method]>][]).map(([method, operation]) => ({
    name,
    method,
    endpoint,
    permission: operation.permission,
  })),
);

let people: Record<Role, SignedInPerson>;

beforeEach(async () => {
  // Limits are not under test here: a fresh per-process limiter per test.
  setRateLimiterForTests(new MemoryRateLimiter());
  people ??= Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await signedIn(role)] as const))) as Record<Role, SignedInPerson>;
});

afterEach(() => setRateLimiterForTests(undefined));

/** A write from the dashboard carries the browser's Fetch Metadata. */
const fromDashboard = (cookie: string) => ({ cookie, "sec-fetch-site": "same-origin" });

async function expectRefused(response: Response, endpoint: Endpoint, status: 401 | 403) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body.error_code).toBe(status === 401 ? "UNAUTHORIZED" : "FORBIDDEN");
  // The documented error format of the endpoint's family.
  expect(errorBodySchemas[endpoint.errorFormat].safeParse(body).success).toBe(true);
}

describe("every endpoint x every role", () => {
  const cases = operations.flatMap((operation) => ROLES.map((role) => ({ ...operation, role })));

  it.each(cases.map((c) => [`${c.method} ${c.endpoint.path} as ${c.role}`, c] as const))("%s", async (_, c) => {
    const response = await call(c.name, c.method, fromDashboard(people[c.role].cookie));
    if (satisfies(new Set(ROLE_PERMISSIONS[c.role]), c.permission)) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ reached: true });
    } else {
      await expectRefused(response, c.endpoint, 403);
    }
  });

  it.each(operations.map((o) => [`${o.method} ${o.endpoint.path}`, o] as const))("%s without credentials: 401 unless public", async (_, o) => {
    const response = await call(o.name, o.method, {});
    if (o.permission === "public") expect(response.status).toBe(200);
    else await expectRefused(response, o.endpoint, 401);
  });

  it.each(operations.map((o) => [`${o.method} ${o.endpoint.path}`, o] as const))("%s with API_KEY: allowed (an administrator's key)", async (_, o) => {
    const response = await call(o.name, o.method, { authorization: `Bearer ${TEST_API_KEY}` });
    expect(response.status).toBe(200);
  });
});

describe("scoped keys", () => {
  it.each([["read"], ["dispatch"], ["train"], ["read", "dispatch"]] as Permission[][])("a key with %s reaches exactly what those scopes grant", async (...scopes) => {
    const { key } = await createKey({ name: `scopes ${scopes.join("+")}`, scopes }, API_KEY_ACTOR);
    for (const o of operations) {
      const response = await call(o.name, o.method, { authorization: `Bearer ${key}` });
      expect([o.method, o.endpoint.path, response.status]).toEqual([o.method, o.endpoint.path, satisfies(new Set(scopes), o.permission) ? 200 : 403]);
    }
  });

  it("a revoked key, an expired key and a made-up key get 401", async () => {
    const created = await createKey({ name: "to revoke", scopes: ["read"] }, API_KEY_ACTOR);
    const bearer = { authorization: `Bearer ${created.key}` };
    expect((await call("calls", "GET", bearer)).status).toBe(200);
    await revokeKey(created.id, API_KEY_ACTOR);
    await expectRefused(await call("calls", "GET", bearer), endpoints.calls, 401);

    const soon = await createKey({ name: "expiring", scopes: ["read"], expires_at: new Date(Date.now() + 1_500).toISOString() }, API_KEY_ACTOR);
    expect((await call("calls", "GET", { authorization: `Bearer ${soon.key}` })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await expectRefused(await call("calls", "GET", { authorization: `Bearer ${soon.key}` }), endpoints.calls, 401);

    await expectRefused(await call("calls", "GET", { authorization: `Bearer ${created.key.slice(0, -1)}A` }), endpoints.calls, 401);
    await expectRefused(await call("calls", "GET", { authorization: "Bearer mdk_not-a-key" }), endpoints.calls, 401);
  });
});

describe("people", () => {
  it("a removed person and a lowered role apply on the next request", async () => {
    const dispatcher = await signedIn("dispatcher");
    expect((await call("call", "PATCH", fromDashboard(dispatcher.cookie))).status).toBe(200);
    await setUserRole(dispatcher.user.id, "viewer", API_KEY_ACTOR);
    await expectRefused(await call("call", "PATCH", fromDashboard(dispatcher.cookie)), endpoints.call, 403);
    expect((await call("calls", "GET", { cookie: dispatcher.cookie })).status).toBe(200);
    await removeUser(dispatcher.user.id, API_KEY_ACTOR);
    await expectRefused(await call("calls", "GET", { cookie: dispatcher.cookie }), endpoints.calls, 401);
  });

  it("a forged or tampered session cookie gets 401", async () => {
    const viewer = await signedIn("viewer");
    const [name, value] = viewer.cookie.split("=");
    const tampered = `${name}=${value.slice(0, -3)}abc`;
    await expectRefused(await call("calls", "GET", { cookie: tampered }), endpoints.calls, 401);
    await expectRefused(await call("calls", "GET", { cookie: `${name}=made-up.signature` }), endpoints.calls, 401);
  });

  it("a cookie-authenticated write from another site is refused; a read is not", async () => {
    const { cookie } = people.dispatcher;
    await expectRefused(await call("call", "PATCH", { cookie, "sec-fetch-site": "cross-site" }), endpoints.call, 403);
    await expectRefused(await call("call", "PATCH", { cookie, origin: "https://evil.example", host: "localhost" }), endpoints.call, 403);
    expect((await call("call", "PATCH", { cookie, origin: "http://localhost", host: "localhost" })).status).toBe(200);
    expect((await call("calls", "GET", { cookie, "sec-fetch-site": "cross-site" })).status).toBe(200);
    // A Bearer key is never sent by a browser on its own: no origin check.
    expect((await call("call", "PATCH", { authorization: `Bearer ${TEST_API_KEY}`, "sec-fetch-site": "cross-site" })).status).toBe(200);
  });

  it.skipIf(!getConfig().DATABASE_URL)("a revoked key and a removed person get 401 on a second instance that knew them", async () => {
    const key = await createKey({ name: "two instances", scopes: ["read"] }, API_KEY_ACTOR);
    const person = await signedIn("viewer");
    const instanceB = spawn("npx", ["tsx", "tests/support/instance-b-request.ts"], { env: { ...process.env, LOG_LEVEL: "silent" }, stdio: ["pipe", "pipe", "inherit"] });
    const statuses = createInterface({ input: instanceB.stdout })[Symbol.asyncIterator]();
    const onInstanceB = async (headers: Record<string, string>) => {
      instanceB.stdin.write(`${JSON.stringify(headers)}\n`);
      for (;;) {
        const { value, done } = await statuses.next();
        if (done) throw new Error("instance B ended");
        const match = /^status (\d+)$/.exec(value);
        if (match) return Number(match[1]);
      }
    };
    try {
      // Twice each: the second answer comes from what instance B remembers.
      for (let i = 0; i < 2; i++) {
        expect(await onInstanceB({ authorization: `Bearer ${key.key}` })).toBe(200);
        expect(await onInstanceB({ cookie: person.cookie })).toBe(200);
      }
      await revokeKey(key.id, API_KEY_ACTOR);
      expect(await onInstanceB({ authorization: `Bearer ${key.key}` })).toBe(401);
      expect(await onInstanceB({ cookie: person.cookie })).toBe(200);
      await removeUser(person.user.id, API_KEY_ACTOR);
      expect(await onInstanceB({ cookie: person.cookie })).toBe(401);
    } finally {
      instanceB.kill();
    }
  }, 90_000);
});
