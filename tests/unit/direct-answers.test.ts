import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { answerBeforeNext } from "@/lib/http/direct-answers";

let server: Server;
let base: string;

beforeAll(async () => {
  // As scripts/server.ts: what answerBeforeNext leaves goes on (here to a 418 standing for Next).
  server = createServer((request, response) => {
    if (answerBeforeNext(request, response)) return;
    response.writeHead(418).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the production server's own answer to GET /api/openapi.json", () => {
  it("is the route's answer: same body, ETag, caching and type, with the security headers", async () => {
    const route = await GET(new Request("http://localhost/api/openapi.json"), undefined);
    const direct = await fetch(`${base}/api/openapi.json`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toBe(await route.text());
    for (const header of ["etag", "cache-control", "content-type"]) {
      expect(direct.headers.get(header), header).toBe(route.headers.get(header));
    }
    expect(direct.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(direct.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers 304 to an If-None-Match naming the ETag, and HEAD without a body", async () => {
    const etag = (await fetch(`${base}/api/openapi.json?x=1`)).headers.get("etag")!;
    const unchanged = await fetch(`${base}/api/openapi.json`, { headers: { "if-none-match": `W/${etag}` } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("etag")).toBe(etag);
    const head = await fetch(`${base}/api/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("leaves other methods and paths to Next", async () => {
    for (const [method, path] of [["POST", "/api/openapi.json"], ["GET", "/api/openapi.json/"], ["GET", "/api/incidents"], ["GET", "/api/openapi.jsonx"]]) {
      const response = await fetch(`${base}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(418);
    }
  });
});
