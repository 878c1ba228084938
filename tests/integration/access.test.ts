import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DELETE as deleteSession, POST as postSession } from "@/app/api/session/route";
import { SESSION_COOKIE, sessionToken, warnWhenApiIsOpen } from "@/lib/access/api-key";
import { resetConfigForTests } from "@/lib/config";
import type { RouteName } from "@/lib/http/endpoints";
import { guardRoute, json } from "@/lib/http/respond";
import { log } from "@/lib/log";
import { setRateLimiterForTests } from "@/lib/rate-limit";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";

const KEY = "k3y-for-tests-0123456789";
const route = (name: RouteName) => guardRoute(name, async () => json({ ok: true }));
const get = (name: RouteName, headers: Record<string, string> = {}) =>
  route(name)(new Request("http://localhost/api/calls", { headers }), undefined);
const session = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  postSession(new Request("http://localhost/api/session", { method: "POST", body, headers }), undefined);

beforeEach(() => {
  process.env.API_KEY = KEY;
  resetConfigForTests();
  setRateLimiterForTests(new MemoryRateLimiter());
});

afterEach(() => {
  delete process.env.API_KEY;
  resetConfigForTests();
  setRateLimiterForTests(undefined);
});

describe("API key on /api/calls*, /api/simulate", () => {
  it.each(["calls", "call", "simulate"] as const)("%s: 401 UNAUTHORIZED without a key", async (name) => {
    const response = await get(name);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="mayday"');
    const body = await response.json();
    expect(body.error_code).toBe("UNAUTHORIZED");
    expect(body.error).toBe("Unauthorized");
  });

  it("401 for a wrong key, 200 for the right one", async () => {
    expect((await get("calls", { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await get("calls", { authorization: `Bearer ${KEY}x` })).status).toBe(401);
    expect((await get("calls", { authorization: KEY })).status).toBe(401);
    expect((await get("calls", { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect((await get("calls", { authorization: `bearer ${KEY}` })).status).toBe(200);
  });

  it("accepts the session cookie, not the key itself as a cookie", async () => {
    expect((await get("calls", { cookie: `other=1; ${SESSION_COOKIE}=${sessionToken(KEY)}` })).status).toBe(200);
    expect((await get("calls", { cookie: `${SESSION_COOKIE}=${KEY}` })).status).toBe(401);
    expect((await get("calls", { cookie: `${SESSION_COOKIE}=${sessionToken("another key")}` })).status).toBe(401);
  });

  it("leaves the webhook, health and session open (the webhook keeps its signature)", async () => {
    expect((await get("webhook")).status).toBe(200);
    expect((await get("health")).status).toBe(200);
    expect((await get("session")).status).toBe(200);
  });

  it("is open when API_KEY is unset, and says so at start in production only", async () => {
    delete process.env.API_KEY;
    resetConfigForTests();
    expect((await get("calls")).status).toBe(200);
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    try {
      expect(warnWhenApiIsOpen({ NODE_ENV: "production", API_KEY: undefined })).toBe(true);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("API_KEY is not set"));
      expect(warnWhenApiIsOpen({ NODE_ENV: "production", API_KEY: KEY })).toBe(false);
      expect(warnWhenApiIsOpen({ NODE_ENV: "development", API_KEY: undefined })).toBe(false);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("POST /api/session (the dashboard's sign-in)", () => {
  it("sets an httpOnly SameSite=Strict cookie for the right key; the cookie then opens the API", async () => {
    const response = await session(JSON.stringify({ api_key: KEY }));
    expect(response.status).toBe(204);
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/api");
    expect(cookie).not.toContain(KEY);
    expect((await get("calls", { cookie: cookie.split(";")[0] })).status).toBe(200);
  });

  it("marks the cookie Secure over HTTPS", async () => {
    const response = await postSession(
      new Request("https://mayday.example/api/session", {
        method: "POST",
        body: JSON.stringify({ api_key: KEY }),
        headers: { "content-type": "application/json" },
      }),
      undefined,
    );
    expect(response.headers.get("set-cookie")).toContain("Secure");
  });

  it("answers 401 for a wrong key and sets nothing", async () => {
    const response = await session(JSON.stringify({ api_key: "guess" }));
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await response.json()).error_code).toBe("UNAUTHORIZED");
  });

  it("400 for a missing key, 400 INVALID_JSON, 415 for another type, 413 for a large body", async () => {
    expect((await session(JSON.stringify({}))).status).toBe(400);
    const broken = await session("{");
    expect(broken.status).toBe(400);
    expect((await broken.json()).error_code).toBe("INVALID_JSON");
    const text = await session(`api_key=${KEY}`, { "content-type": "application/x-www-form-urlencoded" });
    expect(text.status).toBe(415);
    expect((await text.json()).error_code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const large = await session(JSON.stringify({ api_key: "x".repeat(10_000) }));
    expect(large.status).toBe(413);
    expect((await large.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("DELETE clears the cookie", async () => {
    const response = await deleteSession(new Request("http://localhost/api/session", { method: "DELETE" }), undefined);
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=; Path=/api; Max-Age=0; HttpOnly; SameSite=Strict`));
  });
});
