import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Endpoint } from "@/lib/contract/endpoint";
import { answerBeforeNext } from "@/lib/http/direct-answers";
import { endpoints } from "@/lib/http/endpoints";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { PLATFORMS } from "@/lib/vocabulary";
import { platformAdapters } from "@/lib/voice-platforms/adapters";
import { liveToolsRoute, platformEndpoints, webhookRoute } from "@/lib/voice-platforms/endpoints";
import { liveToolsPostAt, webhookPostAt } from "@/tests/support/platform-routes";

/**
 * A voice platform is one folder and its registration (docs/webhook.md, "A fourth platform"): its
 * name in PLATFORM_LABELS, its adapter in lib/voice-platforms/adapters.ts, its endpoints in
 * lib/voice-platforms/endpoints.ts (its secrets in lib/config.ts). From those alone each platform's
 * two endpoints are in the registry and the OpenAPI document under its own path and operationId,
 * and answered: by a route file of their own, or by their folder's `[platform]` route; the webhook
 * also by the production server's direct path. (Its wire fields and its name stay in its folder:
 * tests/unit/platform-fields.test.ts.)
 */

const kinds = [
  { kind: "webhook", route: webhookRoute, post: webhookPostAt, folder: "/api/voiceagent-webhook" },
  { kind: "liveTools", route: liveToolsRoute, post: liveToolsPostAt, folder: "/api/live-calls" },
] as const;

const documented = (endpointPath: string) =>
  (buildOpenApiDocument().paths as Record<string, { post?: { operationId?: string } }>)[endpointPath.replace(/:(\w+)/g, "{$1}")];

/** A POST whose body is not JSON: every platform's endpoint refuses it (415) before its credential or the database. */
const notJson = (url: string) => new Request(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "a=1" });

let server: Server;
let base: string;

beforeAll(async () => {
  setRateLimiterForTests(new MemoryRateLimiter());
  // As scripts/server.ts: what answerBeforeNext leaves goes on (here to a 418 standing for Next).
  server = createServer((request, response) => {
    if (answerBeforeNext(request, response)) return;
    response.writeHead(418).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  setRateLimiterForTests(undefined);
  await new Promise((resolve) => server.close(resolve));
});

describe("every platform's registration makes its endpoints", () => {
  it.each(PLATFORMS)("%s: its adapter, and its two endpoints in the registry and the document as its folder declares them", (platform) => {
    expect(platformAdapters[platform].platform).toBe(platform);
    for (const { kind, route } of kinds) {
      const declared = platformEndpoints[platform][kind];
      const endpoint: Endpoint = endpoints[route(platform)];
      expect(endpoint.path, `${platform} ${kind}`).toBe(declared.path);
      expect(endpoint.methods.POST?.operationId).toBe(declared.operationId);
      expect(documented(declared.path)?.post?.operationId, `${declared.path} in the OpenAPI document`).toBe(declared.operationId);
    }
  });

  it.each(PLATFORMS)("%s: each endpoint is answered, by its own route file or by its folder's [platform] route behind that endpoint", async (platform) => {
    for (const { kind, route, post, folder } of kinds) {
      const endpoint: Endpoint = endpoints[route(platform)];
      const own = path.join(process.cwd(), "app", endpoint.path.replace(/:(\w+)/g, "[$1]"), "route.ts");
      if (existsSync(own)) continue;
      expect(endpoint.path, `${platform} ${kind}: no route file of its own, so its [platform] route's`).toBe(`${folder}/${platform}`);
      expect(existsSync(path.join(process.cwd(), "app", folder, "[platform]", "route.ts"))).toBe(true);
      const response = await post(platform)(notJson(`http://localhost${endpoint.path}`));
      expect(response.status, `${platform} ${kind}`).toBe(415);
      expect(await response.json()).toMatchObject({ status: "error", error_code: "UNSUPPORTED_MEDIA_TYPE" });
      // Behind its own endpoint's protection: its rate limit.
      expect(response.headers.get("ratelimit-limit")).toBe(String(endpoint.protection.rateLimit?.limit));
    }
  });

  it.each(PLATFORMS)("%s: the production server answers its webhook itself, behind its endpoint", async (platform) => {
    const endpoint: Endpoint = endpoints[webhookRoute(platform)];
    const response = await fetch(notJson(`${base}${endpoint.path}`));
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ status: "error", error_code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(response.headers.get("ratelimit-limit")).toBe(String(endpoint.protection.rateLimit?.limit));
  });
});

describe("a [platform] route", () => {
  it.each(kinds.flatMap(({ folder, post }) => ["nobody", "elevenlabs"].map((name) => [`${folder}/${name}`, name, post] as const)))(
    "%s, no platform's endpoint (ElevenLabs' are at their historical paths), is 404 NOT_FOUND in the webhook's format",
    async (url, name, post) => {
      const response = await post(name)(new Request(`http://localhost${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: "error", error_code: "NOT_FOUND", message: expect.any(String), timestamp: expect.any(String) });
    },
  );
});
