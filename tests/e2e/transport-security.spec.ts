import { expect, test } from "@playwright/test";

/**
 * Strict-Transport-Security on every answer that came over HTTPS, here through the one trusted
 * proxy of this server (TRUST_PROXY=1, X-Forwarded-Proto: https), and on none over plain HTTP:
 * pages and their assets, API answers through Next, the proxy's 405, and what the production server
 * answers itself before Next (the OpenAPI document, the listing, the webhook).
 */
const HSTS = "max-age=31536000";

const requests: [string, string][] = [
  ["GET", "/setup"],
  ["GET", "/login"],
  ["GET", "/no-such-page"],
  ["GET", "/api/health"],
  ["PUT", "/api/health"],
  ["GET", "/api/openapi.json"],
  ["GET", "/api/calls"],
  ["POST", "/api/voiceagent-webhook"],
];

test("HTTPS answers carry Strict-Transport-Security; plain HTTP ones do not", async ({ request }) => {
  const page = await (await request.get("/setup")).text();
  const asset = /["'](\/_next\/static\/[^"']+\.js)["']/.exec(page)?.[1];
  expect(asset).toBeDefined();
  for (const [method, path] of [...requests, ["GET", asset!] as [string, string]]) {
    const options = { method, data: method === "POST" ? {} : undefined, maxRedirects: 0 };
    const secure = await request.fetch(path, { ...options, headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers()["strict-transport-security"], `${method} ${path} over HTTPS (${secure.status()})`).toBe(HSTS);
    const plain = await request.fetch(path, options);
    expect(plain.headers()["strict-transport-security"], `${method} ${path} over HTTP (${plain.status()})`).toBeUndefined();
  }
});
