import { apiRequest, TEST_API_KEY } from "@/tests/support/auth";
import { existsSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { resetConfigForTests } from "@/lib/config";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import type { Endpoint } from "@/lib/contract/endpoint";
import { allowedMethods, declaredMethods, endpoints } from "@/lib/http/endpoints";
import { PLATFORMS } from "@/lib/vocabulary";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const table = Object.entries(endpoints as Record<string, Endpoint>);
const samplePath = (endpoint: Endpoint) => endpoint.path.replace(/:\w+/g, "CALL-1");
/** The route file serving an endpoint: its own, or for a platform's endpoint without one its folder's `[platform]` route. */
function routeFile(endpoint: Endpoint): string {
  const own = path.join(process.cwd(), "app", endpoint.path.replace(/:(\w+)/g, "[$1]"), "route.ts");
  const platform = path.posix.basename(endpoint.path);
  if (existsSync(own) || !(PLATFORMS as readonly string[]).includes(platform)) return own;
  return path.join(process.cwd(), "app", path.posix.dirname(endpoint.path), "[platform]", "route.ts");
}
/** The path's parameters as Next hands them to the route file. */
const sampleParams = (endpoint: Endpoint) => ({ params: Promise.resolve({ id: "CALL-1", tool: "incident_status", platform: path.posix.basename(endpoint.path) }) });
/** Route files present in this checkout (other endpoints arrive from other branches). */
const present = table.filter(([, endpoint]) => existsSync(routeFile(endpoint)));

const VAPI_SECRET = "vapi_http_methods_secret";
const RETELL_KEY = "key_http_methods_retell";
const TOOL_SECRET = "tool_http_methods_secret";

/** Vapi's and Retell's webhooks and the live tools check their credential before the body: a request that passes it. */
function credentials(name: string, body: string): Record<string, string> {
  if (name === "vapiWebhook" || name === "vapiLiveTools") return { "x-vapi-secret": VAPI_SECRET };
  if (name === "retellWebhook" || name === "retellLiveTools") return { "x-retell-signature": retellSignatureHeader(RETELL_KEY, body) };
  if (name === "elevenlabsLiveTools") return { "x-mayday-tool-secret": TOOL_SECRET };
  return {};
}

beforeAll(() => {
  process.env.API_KEY = TEST_API_KEY;
  process.env.VAPI_WEBHOOK_SECRET = VAPI_SECRET;
  process.env.RETELL_API_KEY = RETELL_KEY;
  process.env.ELEVENLABS_TOOL_SECRET = TOOL_SECRET;
  // The GIS import takes files of hundreds of MB: its limit set under this test's 6 MB body.
  process.env.GIS_IMPORT_MAX_BYTES = String(5 * 1024 * 1024);
  resetConfigForTests();
  setRateLimiterForTests(new MemoryRateLimiter());
});
afterAll(() => {
  delete process.env.VAPI_WEBHOOK_SECRET;
  delete process.env.ELEVENLABS_TOOL_SECRET;
  delete process.env.RETELL_API_KEY;
  delete process.env.GIS_IMPORT_MAX_BYTES;
  resetConfigForTests();
  setRateLimiterForTests(undefined);
});

describe("405 for methods an endpoint does not have", () => {
  const cases = table.flatMap(([name, endpoint]) =>
    METHODS.filter((method) => !allowedMethods(endpoint).includes(method)).map((method) => [name, method, endpoint] as const),
  );

  it.each(cases)("%s: %s answers 405 in the endpoint's format with Allow", async (_name, method, endpoint) => {
    const response = proxy(new NextRequest(`http://localhost${samplePath(endpoint)}`, { method }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allowedMethods(endpoint).join(", "));
    const body = await response.json();
    expect(body.error_code).toBe("METHOD_NOT_ALLOWED");
    if (endpoint.errorFormat === "webhook") expect(body.status).toBe("error");
    else expect(body.error).toBe("Method not allowed");
  });

  it("lets allowed methods and paths outside the table through", () => {
    for (const [, endpoint] of table) {
      for (const method of allowedMethods(endpoint)) {
        const response = proxy(new NextRequest(`http://localhost${samplePath(endpoint)}/`, { method }));
        expect(response.headers.get("x-middleware-next")).toBe("1");
      }
    }
    expect(proxy(new NextRequest("http://localhost/api/calls/1/other", { method: "DELETE" })).headers.get("x-middleware-next")).toBe("1");
  });

  it.each(present)("%s: the table lists exactly the methods its route file exports", async (_name, endpoint) => {
    const routeModule = (await import(routeFile(endpoint))) as Record<string, unknown>;
    const exported = METHODS.filter((method) => typeof routeModule[method] === "function");
    expect(exported.sort()).toEqual(declaredMethods(endpoint).sort());
  });
});

describe("415 and 413 on every POST and PATCH that takes a body", () => {
  // An action without a body (an exercise's start, pause...) reads none, so neither applies.
  const bodied = present.flatMap(([name, endpoint]) =>
    declaredMethods(endpoint)
      .filter((method) => (method === "POST" || method === "PATCH") && endpoint.methods[method]?.body !== undefined)
      .map((method) => [name, method, endpoint] as const),
  );

  it.each(bodied)("%s %s: 415 for a body that is not JSON", async (_name, method, endpoint) => {
    const handler = (await import(routeFile(endpoint)))[method];
    const response: Response = await handler(
      apiRequest(`http://localhost${samplePath(endpoint)}`, { method, body: "a=1", headers: { "content-type": "text/plain" } }),
      sampleParams(endpoint),
    );
    expect(response.status).toBe(415);
    expect((await response.json()).error_code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it.each(bodied)("%s %s: 413 for a body over the limit", async (name, method, endpoint) => {
    const handler = (await import(routeFile(endpoint)))[method];
    const body = JSON.stringify({ padding: "x".repeat(6 * 1024 * 1024) });
    const response: Response = await handler(
      apiRequest(`http://localhost${samplePath(endpoint)}`, {
        method,
        body,
        headers: { "content-type": "application/json", ...credentials(name, body) },
      }),
      sampleParams(endpoint),
    );
    expect(response.status).toBe(413);
    expect((await response.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
  });
});
