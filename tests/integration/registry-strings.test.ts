import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { Endpoint, Method, Operation } from "@/lib/contract/endpoint";
import { endpoints, type RouteName } from "@/lib/http/endpoints";
import { errorBodySchemas } from "@/lib/http/error-schemas";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { TEST_API_KEY } from "@/tests/support/auth";

/**
 * docs/security.md, "Text PostgreSQL refuses": every string a request hands an endpoint of the
 * registry (path parameters, query parameters, JSON body fields) holding a NUL, a lone surrogate
 * or a megabyte is answered 4xx in the endpoint's error format, never 5xx, and NUL and lone
 * surrogates are 400 INVALID_PARAMETER. Driven by the registry itself: a new endpoint is covered
 * the day it is declared. A webhook's raw body is its own (its text is cleaned, docs/webhook.md;
 * tests/integration/webhook-property.test.ts), and a lone surrogate cannot travel in a URL's
 * query (UTF-8 decoding turns it into U+FFFD), so query strings get NUL and length only.
 */

type RouteModule = Partial<Record<Method, (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>>>;

const MEGABYTE = "x".repeat(1024 * 1024);

/** A string with a NUL or a lone surrogate somewhere in it. */
const refusedText = (surrogates: boolean) =>
  fc
    .tuple(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(...(surrogates ? ["\u0000", "\uD800", "\uDFFF", "\uDBFF(", ")\uDC00"] : ["\u0000"])),
      fc.string({ maxLength: 12 }),
    )
    .map(([before, refused, after]) => ({ value: before + refused + after, refused: true }));

const hostile = (surrogates: boolean) =>
  fc.oneof({ arbitrary: refusedText(surrogates), weight: 4 }, { arbitrary: fc.constant({ value: MEGABYTE, refused: false }), weight: 1 });

type Slot = { kind: "param" | "query" | "body"; name: string };

/** The JSON body's field names, from its documented schema (an object's keys). */
function bodyFields(operation: Operation): string[] {
  if (operation.body?.kind !== "json") return [];
  const schema = operation.body.documented.schema as z.ZodType & { shape?: Record<string, unknown> };
  return Object.keys(schema.shape ?? {});
}

const operations = (Object.entries(endpoints) as [RouteName, Endpoint][]).flatMap(([name, endpoint]) =>
  (Object.entries(endpoint.methods) as [Method, Operation][]).map(([method, operation]) => {
    const slots: Slot[] = [
      ...Object.keys(endpoint.params?.shape ?? {}).map((param) => ({ kind: "param" as const, name: param })),
      ...Object.keys(operation.query ?? {}).map((query) => ({ kind: "query" as const, name: query })),
      ...bodyFields(operation).map((field) => ({ kind: "body" as const, name: field })),
    ];
    return { name, method, endpoint, operation, slots };
  }),
);

/** `/api/calls/:id` -> app/api/calls/[id]/route.ts */
const routeFile = (endpointPath: string) =>
  path.join(process.cwd(), "app", endpointPath.replace(/^\//, "").replace(/:(\w+)/g, "[$1]"), "route.ts");

function requestFor(endpoint: Endpoint, method: Method, operation: Operation, slot: Slot, value: string) {
  const params: Record<string, string> = {};
  for (const param of Object.keys(endpoint.params?.shape ?? {})) params[param] = slot.kind === "param" && slot.name === param ? value : "x";
  const url = new URL(`http://localhost${endpoint.path.replace(/:(\w+)/g, "x")}`);
  if (slot.kind === "query") url.searchParams.set(slot.name, value);
  const headers: Record<string, string> = { authorization: `Bearer ${TEST_API_KEY}` };
  let body: string | undefined;
  if (operation.body?.kind === "json") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(slot.kind === "body" ? { [slot.name]: value } : {});
  }
  return { request: new Request(url, { method, headers, body }), context: { params: Promise.resolve(params) } };
}

afterAll(() => setRateLimiterForTests(undefined));

describe("hostile strings in any input of any registry endpoint", () => {
  const cases = operations.filter((operation) => operation.slots.length > 0);

  it("covers the endpoints that take strings", () => {
    expect(cases.map((c) => `${c.method} ${c.endpoint.path}`)).toEqual(
      expect.arrayContaining(["GET /api/calls", "PATCH /api/calls/:id", "POST /api/incidents/:id/notes", "POST /api/users", "GET /api/audit"]),
    );
  });

  it.each(cases.map((c) => [`${c.method} ${c.endpoint.path}`, c] as const))("%s: 4xx in its error format, never 5xx", async (_, c) => {
    const route = ((await import(routeFile(c.endpoint.path))) as RouteModule)[c.method]!;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...c.slots).chain((slot) => fc.tuple(fc.constant(slot), hostile(slot.kind !== "query"))), async ([slot, input]) => {
        // Limits are not under test: a fresh counter per request.
        setRateLimiterForTests(new MemoryRateLimiter());
        const { request, context } = requestFor(c.endpoint, c.method, c.operation, slot, input.value);
        const response = await route(request, context);
        const text = await response.text();
        const where = `${slot.kind} ${slot.name}: ${response.status} ${text.slice(0, 200)}`;
        expect(response.status, where).toBeGreaterThanOrEqual(400);
        expect(response.status, where).toBeLessThan(500);
        const body = JSON.parse(text) as { error_code?: string };
        expect(errorBodySchemas[c.endpoint.errorFormat].safeParse(body).success, where).toBe(true);
        if (input.refused) expect(body.error_code, where).toBe("INVALID_PARAMETER");
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
