import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { productionListener } from "@/lib/http/direct-answers";

/**
 * Strict-Transport-Security on what the production server answers over HTTPS (directly, or as the
 * trusted proxy in front reports it), whoever answers: its own direct answers or Next (a stand-in
 * here that answers 418 as Next would, with its own headers; tests/e2e/transport-security.spec.ts
 * walks the real Next).
 */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(productionListener((_request, response) => void response.writeHead(418, { "content-type": "text/plain" }).end("next")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetConfigForTests();
});

const hsts = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${base}${path}`, { headers })).headers.get("strict-transport-security");

describe("Strict-Transport-Security", () => {
  it("is sent when the trusted proxy says the client came over HTTPS, on direct and Next answers alike", async () => {
    process.env.TRUST_PROXY = "1";
    resetConfigForTests();
    for (const path of ["/api/openapi.json", "/api/calls", "/login"]) {
      expect(await hsts(path, { "x-forwarded-proto": "https" }), path).toBe("max-age=31536000");
      expect(await hsts(path, { "x-forwarded-proto": "http" }), path).toBeNull();
      expect(await hsts(path), path).toBeNull();
    }
    // Proxies that append: the entry of the one trusted proxy, not what the client wrote before it.
    expect(await hsts("/login", { "x-forwarded-proto": "https, http" })).toBeNull();
  });

  it("is not sent on a client's own X-Forwarded-Proto when no proxy is trusted", async () => {
    expect(await hsts("/api/openapi.json", { "x-forwarded-proto": "https" })).toBeNull();
    expect(await hsts("/login", { "x-forwarded-proto": "https" })).toBeNull();
  });
});
