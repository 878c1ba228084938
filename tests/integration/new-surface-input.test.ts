import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Endpoint, Method, Operation } from "@/lib/contract/endpoint";
import { getDb } from "@/lib/db/client";
import { endpoints, type RouteName } from "@/lib/http/endpoints";
import { errorBodySchemas } from "@/lib/http/error-schemas";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { apiRequest } from "../support/auth";
import { insertCalls, makeCalls } from "../support/calls";

/**
 * Bad input on the newer surface (issue 50; docs/security.md, "Text PostgreSQL refuses"): the
 * units (roster, import, state, position, dispatch), notes, subscriptions, exercises and keys,
 * each given a body that is valid but for one field, which holds a NUL, a number or a time out of
 * any range (JSON's 1e400 is Infinity), a wrong type or an odd URL spelling; and every JSON body
 * of the registry with bytes that are not UTF-8. Never a 5xx, always the endpoint's error format,
 * and a refused request leaves the store as it was. Every query parameter of the registry gets
 * numbers and times out of any range the same way. tests/integration/registry-strings.test.ts
 * drives each string input alone; this drives each field inside an otherwise valid request.
 */

type RouteModule = Partial<Record<Method, (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>>>;

/** `/api/units/:id` -> app/api/units/[id]/route.ts */
const routeFile = (endpointPath: string) =>
  path.join(process.cwd(), "app", endpointPath.replace(/^\//, "").replace(/:(\w+)/g, "[$1]"), "route.ts");

const routeOf = async (endpointPath: string, method: Method) => ((await import(routeFile(endpointPath))) as RouteModule)[method]!;

/** What the endpoints below may write, as one row: equal before and after a refused request. */
async function storeState(): Promise<unknown> {
  const db = await getDb();
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT (SELECT count(*) FROM units)::int AS units, (SELECT max(change_number) FROM units)::text AS unit_change,
      (SELECT count(*) FROM unit_state_changes)::int AS unit_states, (SELECT count(*) FROM unit_assignments)::int AS assignments,
      (SELECT count(*) FROM incident_notes)::int AS notes, (SELECT count(*) FROM subscriptions)::int AS subscriptions,
      (SELECT max(updated_at) FROM subscriptions)::text AS subscription_update, (SELECT count(*) FROM exercises)::int AS exercises,
      (SELECT count(*) FROM api_keys)::int AS keys, (SELECT count(*) FROM audit_events)::int AS audit,
      (SELECT string_agg(id || ':' || status, ',' ORDER BY id) FROM incidents)::text AS incidents`;
  return row;
}

/** JSON tokens put in place of one field's value: raw, so that 1e400 (Infinity once parsed) can travel. */
const NUMBERS = ["1e400", "-1e400", "1e308", "-1e308", "2147483648", "-2147483649", "9007199254740993", "123456789012345678901234567890", "-0", "5e-324", "0.5", "-1"];
const TIMES = [
  "0000-01-01T00:00:00Z", "-005000-01-01T00:00:00Z", "-271821-04-20T00:00:00Z", "+275760-09-13T00:00:00Z", "9999-12-31T23:59:59.999Z",
  "1969-12-31T23:59:59Z", "2026-02-30T00:00:00Z", "2026-01-01T00:00:00", "1000", "Sat, 01 Jan 0000 00:00:00 GMT", "1e400", "",
];
const URLS = [
  "http://%2509example.com/", "http://[fe80::1%25lo]/", "http://[::1%25eth0]/", "http://%00/", "http://a%20b.com/", "http://xn--/",
  "http://1.2.3.4.5/", "http://[::ffff:127.0.0.1]/", "http://0x7f.1/", "http://%5B::1%5D/", "http://[1:2:3:4:5:6:7:8:9]/", "https://user:pw@93.184.216.34/",
  "javascript:alert(1)", "http://\u0000/", "http://exa\u00admple.com/", "//93.184.216.34/",
];

const jsonString = (text: string) => JSON.stringify(text);

/** A string holding a NUL or a lone surrogate between generated text. */
const unstorable = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\u0000", "\uD800", "\uDFFF"), fc.string({ maxLength: 8 }))
  .map(([before, bad, after]) => jsonString(before + bad + after));

/** A percent-encoded byte, a zone id or a bracket somewhere in an http(s) URL's host. */
const oddUrl = fc
  .tuple(
    fc.constantFrom("http://", "https://", "http://[", "http://[fe80::1"),
    fc.string({ maxLength: 6 }),
    fc.constantFrom("%25", "%2509", "%00", "%0a", "%20", "%5b", "%ff", "%25lo]", "]", "[", "%", "@", ":99999", ".."),
    fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, "0")}`),
    fc.constantFrom("/", "]/", ".example/", ""),
  )
  .map((parts) => parts.join(""));

const hostile = fc.oneof(
  unstorable,
  fc.constantFrom(...NUMBERS),
  fc.constantFrom(...TIMES).map(jsonString),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((date) => jsonString(date.toISOString())),
  fc.constantFrom(...URLS).map(jsonString),
  oddUrl.map(jsonString),
  fc.constantFrom("null", "true", "[]", "{}", '[["x"]]', '{"a":{"b":[1e400]}}', jsonString("x".repeat(5_000))),
);

interface Case {
  endpoint: RouteName;
  method: Method;
  /** The path's parameters and a body valid as it is. */
  params: () => Record<string, string>;
  body: () => Record<string, unknown>;
}

let unitId = "";
let incidentId = "";
let subscriptionId = "";
let sign = 0;

const CASES: Case[] = [
  { endpoint: "units", method: "POST", params: () => ({}), body: () => ({ call_sign: `NS-${++sign}`, type: "engine", station: "Station 1", station_latitude: 25.7, station_longitude: -80.2, in_service: true }) },
  { endpoint: "unit", method: "PATCH", params: () => ({ id: unitId }), body: () => ({ name: "Engine", station: "Station 2", station_latitude: 25.8, station_longitude: -80.1 }) },
  { endpoint: "unitState", method: "POST", params: () => ({ id: unitId }), body: () => ({ state: "available", latitude: 25.7, longitude: -80.2 }) },
  { endpoint: "unitPosition", method: "POST", params: () => ({ id: unitId }), body: () => ({ latitude: 25.7, longitude: -80.2, at: new Date(Date.now() - 1_000).toISOString() }) },
  { endpoint: "incidentUnits", method: "POST", params: () => ({ id: incidentId }), body: () => ({ unit_ids: [unitId], confirm: false }) },
  { endpoint: "incidentNotes", method: "POST", params: () => ({ id: incidentId }), body: () => ({ text: "Caller says the smoke is grey" }) },
  { endpoint: "subscriptions", method: "POST", params: () => ({}), body: () => ({ name: "Hostile", url: "https://93.184.216.34/hook", event_types: ["incident.created"], enabled: false }) },
  { endpoint: "subscription", method: "PATCH", params: () => ({ id: subscriptionId }), body: () => ({ name: "Renamed", url: "https://93.184.216.35/hook", enabled: false }) },
  { endpoint: "exercises", method: "POST", params: () => ({}), body: () => ({ scenario: "hurricane_florida", duration_minutes: 5, num_calls: 5, speed: 1, abandoned_share: 0.1, live_share: 0, seed: 7, start: false }) },
  { endpoint: "keys", method: "POST", params: () => ({}), body: () => ({ name: "Gateway", scopes: ["read"], expires_at: new Date(Date.now() + 86_400_000).toISOString() }) },
];

function send(c: Case, body: string) {
  const endpoint = endpoints[c.endpoint] as Endpoint;
  const params = c.params();
  const url = `http://localhost${endpoint.path.replace(/:(\w+)/g, (_, name: string) => params[name])}`;
  return { url, request: apiRequest(url, { method: c.method, headers: { "content-type": "application/json" }, body }), context: { params: Promise.resolve(params) } };
}

/** The answer is 4xx in the endpoint's error format, or a success; never 5xx. */
async function answered(endpoint: Endpoint, response: Response, where: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = await response.text();
  const detail = `${where}: ${response.status} ${text.slice(0, 300)}`;
  expect(response.status, detail).toBeLessThan(500);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (response.status >= 400) expect(errorBodySchemas[endpoint.errorFormat].safeParse(body).success, detail).toBe(true);
  return { status: response.status, body };
}

beforeAll(async () => {
  setRateLimiterForTests(new MemoryRateLimiter());
  const db = await getDb();
  const calls = makeCalls(5, 5_050).filter((call) => !call.simulation);
  await insertCalls(db, calls);
  const [call] = await db.call.findMany({ where: { id: { in: calls.map((entry) => entry.id) } }, select: { incidentId: true }, take: 1 });
  incidentId = call.incidentId;
  const unit = await (await routeOf("/api/units", "POST"))(send(CASES[0], JSON.stringify(CASES[0].body())).request, { params: Promise.resolve({}) });
  unitId = ((await unit.json()) as { id: string }).id;
  const subscription = await (await routeOf("/api/subscriptions", "POST"))(send(CASES[6], JSON.stringify(CASES[6].body())).request, { params: Promise.resolve({}) });
  expect(subscription.status).toBe(201);
  subscriptionId = ((await subscription.json()) as { id: string }).id;
});

afterAll(() => setRateLimiterForTests(undefined));

describe("one hostile field in an otherwise valid request", () => {
  it.each(CASES.map((c) => [`${c.method} ${(endpoints[c.endpoint] as Endpoint).path}`, c] as const))(
    "%s: never 5xx, and a refusal changes nothing",
    async (_, c) => {
      const endpoint = endpoints[c.endpoint] as Endpoint;
      const route = await routeOf(endpoint.path, c.method);
      const valid = await answered(endpoint, await route(send(c, JSON.stringify(c.body())).request, send(c, "").context), "the valid body");
      expect(valid.status, JSON.stringify(valid.body)).toBeLessThan(300);
      const fields = Object.keys(c.body());
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fields), hostile, async (field, token) => {
          setRateLimiterForTests(new MemoryRateLimiter());
          const body = JSON.stringify({ ...c.body(), [field]: "\u0001hostile" }).replace(jsonString("\u0001hostile"), token);
          const before = await storeState();
          const { request, context } = send(c, body);
          const { status, body: answer } = await answered(endpoint, await route(request, context), `${field} = ${token.slice(0, 80)}`);
          if (status >= 400) {
            expect(await storeState(), `${field} = ${token.slice(0, 80)}: ${JSON.stringify(answer)}`).toEqual(before);
            // NUL and lone surrogates are named by the shared check; any 400 names what was wrong.
            if (status === 400) expect(String(answer.error ?? "")).toMatch(/^Invalid|^Missing|Request|^Bad/);
          }
        }),
        { numRuns: 60 },
      );
    },
    180_000,
  );

  it("a unit position's time outside PostgreSQL's range, or not ISO 8601 with an offset, is 400 naming at", async () => {
    const route = await routeOf("/api/units/:id/position", "POST");
    for (const at of ["0000-01-01T00:00:00Z", "-005000-01-01T00:00:00Z", "-271821-04-20T00:00:00Z", "1969-12-31T23:59:59Z", "2026-01-01T00:00:00", "1000"]) {
      const before = await storeState();
      const { request, context } = send(CASES[3], JSON.stringify({ latitude: 25.7, longitude: -80.2, at }));
      const response = await route(request, context);
      expect(response.status, at).toBe(400);
      expect(await response.json(), at).toMatchObject({ error: "Invalid at", error_code: "INVALID_PARAMETER" });
      expect(await storeState()).toEqual(before);
    }
  });

  it("the subscription URLs http://%2509... and http://[fe80::1%25lo]/ are 400 naming url, at creation and update", async () => {
    for (const c of [CASES[6], CASES[7]]) {
      const route = await routeOf((endpoints[c.endpoint] as Endpoint).path, c.method);
      for (const url of ["http://%2509example.com/", "http://[fe80::1%25lo]/"]) {
        const before = await storeState();
        const { request, context } = send(c, JSON.stringify({ ...c.body(), url }));
        const response = await route(request, context);
        expect(response.status, `${c.method} ${url}`).toBe(400);
        expect(await response.json()).toMatchObject({ error: "Invalid url", error_code: "INVALID_PARAMETER" });
        expect(await storeState()).toEqual(before);
      }
    }
  });

  it("a unit import whose cells hold out-of-range numbers, NUL or odd text: never 5xx, and a refusal imports nothing", async () => {
    const route = await routeOf("/api/units/import", "POST");
    const endpoint = endpoints.unitImport as Endpoint;
    const cell = fc.oneof(
      fc.constantFrom("1e400", "-1e400", "1e308", "Infinity", "NaN", "0x10", "-0", "", " ", '"', '""', "yes", "maybe", "x".repeat(200)),
      fc.string({ maxLength: 10 }),
      fc.string({ maxLength: 6 }).map((text) => `${text}\u0000`),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 6 }), cell, async (column, value) => {
        setRateLimiterForTests(new MemoryRateLimiter());
        const cells = [`IMP-${++sign}`, "engine", "Engine", "Station 1", "25.7", "-80.2", "true"];
        cells[column] = value;
        const csv = `call_sign,type,name,station,station_latitude,station_longitude,in_service\n${cells.join(",")}\n`;
        const before = await storeState();
        const { request, context } = send({ ...CASES[0], endpoint: "unitImport" }, JSON.stringify({ csv }));
        const { status } = await answered(endpoint, await route(request, context), `column ${column} = ${JSON.stringify(value)}`);
        if (status >= 400) expect(await storeState()).toEqual(before);
      }),
      { numRuns: 60 },
    );
  }, 180_000);
});

/** Query texts out of any range: numbers past every integer type, times of ISO year 0000 (PostgreSQL has none) and beyond JavaScript's. */
const QUERY_VALUES = [
  "1e400", "-1e400", "-1", "99999999999999999999", "2147483648", "9223372036854775808", "NaN", "0.5", "1e-400", "0x10",
  "0000-01-01", "0000-12-31", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "-005000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z",
  "275760-09-13", "9999-12-31", "9999-12-31T23:59:59-14:00", "2026-02-30",
];

const queryOperations = (Object.entries(endpoints) as [RouteName, Endpoint][]).flatMap(([, endpoint]) =>
  (Object.entries(endpoint.methods) as [Method, Operation][])
    .filter(([, operation]) => operation.query !== undefined && !Object.values(operation.responses).some((answer) => answer.contentType === "text/event-stream"))
    .map(([method, operation]) => ({ endpoint, method, names: Object.keys(operation.query!) })),
);

describe("a query parameter out of any range", () => {
  // Every parameter with every value, not a sample: a listing has a dozen parameters and one of them may be the time.
  it.each(queryOperations.map((c) => [`${c.method} ${c.endpoint.path}`, c] as const))("%s: never 5xx, and a refusal changes nothing", async (_, c) => {
    const route = await routeOf(c.endpoint.path, c.method);
    const params = Object.fromEntries(Object.keys(c.endpoint.params?.shape ?? {}).map((param) => [param, param === "id" ? subscriptionId : "x"]));
    for (const name of c.names) {
      for (const value of QUERY_VALUES) {
        setRateLimiterForTests(new MemoryRateLimiter());
        const url = new URL(`http://localhost${c.endpoint.path.replace(/:(\w+)/g, (__, param: string) => params[param])}`);
        url.searchParams.set(name, value);
        // A read changes nothing whatever its answer; a write refused must not either.
        const before = c.method === "GET" ? undefined : await storeState();
        const response = await route(apiRequest(url, { method: c.method }), { params: Promise.resolve(params) });
        expect(response.status, `${name}=${value}: ${response.status}`).toBeLessThan(500);
        await response.body?.cancel();
        if (before !== undefined && response.status >= 400) expect(await storeState()).toEqual(before);
      }
    }
  }, 120_000);
});

/** Byte sequences that are not UTF-8: a lone continuation byte, an overlong form, an encoded surrogate, a cut sequence, bytes never used. */
const notUtf8 = fc.constantFrom(
  [0x80], [0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80],
  [0xf5], [0xfe], [0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98],
);

const jsonBodyOperations = (Object.entries(endpoints) as [RouteName, Endpoint][]).flatMap(([, endpoint]) =>
  (Object.entries(endpoint.methods) as [Method, Operation][])
    .filter(([, operation]) => operation.body?.kind === "json")
    .map(([method, operation]) => ({ endpoint, method, operation })),
);

/** Where the bytes go in a body's JSON text (JSON.stringify leaves it as it is). */
const HOLE = "\u2603";

describe("a JSON body whose bytes are not UTF-8", () => {
  it("covers the JSON bodies of the registry, the new surface's among them", () => {
    expect(jsonBodyOperations.map(({ method, endpoint }) => `${method} ${endpoint.path}`)).toEqual(
      expect.arrayContaining(["POST /api/units", "POST /api/units/import", "POST /api/units/:id/position", "POST /api/subscriptions", "POST /api/incidents/:id/notes"]),
    );
  });

  it.each(jsonBodyOperations.map((c) => [`${c.method} ${c.endpoint.path}`, c] as const))("%s: 400 INVALID_JSON, nothing changed", async (_, c) => {
    const route = await routeOf(c.endpoint.path, c.method);
    const schema = c.operation.body!.documented.schema as { shape?: Record<string, unknown> };
    const field = Object.keys(schema.shape ?? { text: true })[0];
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 8 }).filter((text) => !text.includes(HOLE)), notUtf8, fc.string({ maxLength: 8 }).filter((text) => !text.includes(HOLE)), async (before, bad, after) => {
        setRateLimiterForTests(new MemoryRateLimiter());
        const [head, tail] = JSON.stringify({ [field]: `${before}${HOLE}${after}` }).split(HOLE);
        const body = Buffer.concat([Buffer.from(head), Buffer.from(bad), Buffer.from(tail)]);
        // Each path parameter a value its endpoint takes, so the body is what is refused.
        const known: Record<string, string> = { emergency_type: "structure_fire", severity: "critical" };
        const params = Object.fromEntries(Object.keys(c.endpoint.params?.shape ?? {}).map((name) => [name, known[name] ?? (name === "id" && c.endpoint.path.startsWith("/api/units") ? unitId : incidentId)]));
        const url = `http://localhost${c.endpoint.path.replace(/:(\w+)/g, (__, name: string) => params[name])}`;
        const stored = await storeState();
        const response = await route(apiRequest(url, { method: c.method, headers: { "content-type": "application/json" }, body }), { params: Promise.resolve(params) });
        const { status, body: answer } = await answered(c.endpoint, response, JSON.stringify(body.toString("latin1")));
        expect(status).toBe(400);
        expect(answer).toMatchObject({ error_code: "INVALID_JSON" });
        expect(JSON.stringify(answer)).toContain("not valid UTF-8");
        expect(await storeState()).toEqual(stored);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
