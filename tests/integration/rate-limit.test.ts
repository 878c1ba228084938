import { apiRequest, TEST_API_KEY } from "@/tests/support/auth";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { appendPeer } from "@/lib/http/client-address";
import type { Endpoint } from "@/lib/contract/endpoint";
import { rateLimitPolicies } from "@/lib/contract/rate-limit-policies";
import { endpoints, type RouteName } from "@/lib/http/endpoints";
import { guardRoute, json } from "@/lib/http/respond";
import { createConfiguredRateLimiter, setRateLimiterForTests, type RateLimiter } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { closeRedis, type RedisClient } from "@/lib/redis";
import {
  connect,
  deleteKeys,
  DisposableRedis,
  redisConnection,
  redisLimiter,
  testRedisUrl,
  uniquePrefix,
} from "../support/redis";

/** A route of the given name whose handler only answers 200: what is tested is apiRoute's guard. */
const rateLimitPolicyOf = (name: RouteName) => (endpoints[name] as Endpoint).protection.rateLimit!;

const route = (name: RouteName) => guardRoute(name, async () => json({ ok: true }));

/** A request as scripts/server.ts hands it to Next: the socket peer appended to x-forwarded-for. */
function request(peer = "198.51.100.7", forwardedFor?: string): Request {
  return apiRequest("http://localhost/api/test", {
    method: "POST",
    headers: { "x-forwarded-for": appendPeer(forwardedFor, peer) },
  });
}

async function send(name: RouteName, times: number, peer?: string, forwardedFor?: string): Promise<Response[]> {
  const handler = route(name);
  const responses: Response[] = [];
  for (let i = 0; i < times; i++) responses.push(await handler(request(peer, forwardedFor), undefined));
  return responses;
}

/** Start of a minute, so a whole window lies ahead. */
const WINDOW_START = Date.UTC(2031, 0, 1, 0, 0, 0);

let redis: RedisClient;
const connection = redisConnection();
const prefixes: string[] = [];
function limiterWithPrefix(name: string): RateLimiter {
  const prefix = uniquePrefix(name);
  prefixes.push(prefix);
  return redisLimiter(connection, prefix);
}

beforeAll(async () => {
  redis = await connect();
});

beforeEach(() => {
  // Only Date is faked: windows are chosen from the clock, Redis and sockets keep real timers.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(WINDOW_START);
  process.env.API_KEY = TEST_API_KEY;
  delete process.env.TRUST_PROXY;
  resetConfigForTests();
});

afterEach(() => {
  vi.useRealTimers();
  setRateLimiterForTests(undefined);
});

afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.destroy();
  connection.close();
});

describe("rate limits on real Redis", () => {
  const limited: RouteName[] = ["simulate", "calls", "call", "elevenlabsWebhook", "session"];

  it.each(limited)("%s: the table's limit per client and window, then 429 until the window ends", async (name) => {
    setRateLimiterForTests(limiterWithPrefix(name));
    const limit = rateLimitPolicyOf(name).limit;
    const allowed = await send(name, limit);
    expect(allowed.map((response) => response.status)).toEqual(Array(limit).fill(200));
    expect(allowed[0].headers.get("ratelimit-limit")).toBe(String(limit));
    expect(allowed[0].headers.get("ratelimit-remaining")).toBe(String(limit - 1));
    expect(allowed[limit - 1].headers.get("ratelimit-remaining")).toBe("0");

    const [refused] = await send(name, 1);
    expect(refused.status).toBe(429);
    // Another client keeps its own budget.
    expect((await send(name, 1, "198.51.100.8"))[0].status).toBe(200);

    vi.setSystemTime(WINDOW_START + 59_999);
    expect((await send(name, 1))[0].status).toBe(429);
    // Ratelimit's in-process cache of blocked clients releases them 1 ms after the reset time.
    vi.setSystemTime(WINDOW_START + 60_001);
    const [afterReset] = await send(name, 1);
    expect(afterReset.status).toBe(200);
    expect(afterReset.headers.get("ratelimit-remaining")).toBe(String(limit - 1));
  });

  it("the listing and single calls draw on one budget", async () => {
    setRateLimiterForTests(limiterWithPrefix("calls-shared"));
    await send("calls", 600);
    expect((await send("call", 400)).every((response) => response.status === 200)).toBe(true);
    expect((await send("call", 1))[0].status).toBe(429);
    expect((await send("calls", 1))[0].status).toBe(429);
  });

  it.each([
    ["simulate", { details: expect.any(String) }],
    ["calls", {}],
    ["elevenlabsWebhook", { status: "error" }],
  ] as const)("%s: 429 with Retry-After, RateLimit-* and error, message, timestamp, RATE_LIMITED", async (name, extra) => {
    setRateLimiterForTests(limiterWithPrefix(`body-${name}`));
    vi.setSystemTime(WINDOW_START + 15_000);
    await send(name, rateLimitPolicyOf(name).limit);
    const [response] = await send(name, 1);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("45");
    expect(response.headers.get("ratelimit-limit")).toBe(String(rateLimitPolicyOf(name).limit));
    expect(response.headers.get("ratelimit-remaining")).toBe("0");
    expect(response.headers.get("ratelimit-reset")).toBe("45");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toEqual({
      error: "Rate limit exceeded",
      message: expect.stringContaining("retry in 45 s"),
      timestamp: new Date(WINDOW_START + 15_000).toISOString(),
      error_code: "RATE_LIMITED",
      ...extra,
    });
  });

  it("two app instances on one Redis share one count per client", async () => {
    const prefix = uniquePrefix("two-instances");
    prefixes.push(prefix);
    const otherConnection = redisConnection();
    try {
      const instances = [redisLimiter(connection, prefix), redisLimiter(otherConnection, prefix)];
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        setRateLimiterForTests(instances[i % 2]);
        statuses.push((await send("session", 1))[0].status);
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    } finally {
      otherConnection.close();
    }
  });

  it("ignores x-forwarded-for written by the client unless TRUST_PROXY says a proxy wrote it", async () => {
    setRateLimiterForTests(limiterWithPrefix("spoof"));
    const spoofed = [];
    for (let i = 0; i < 11; i++) spoofed.push((await send("session", 1, "198.51.100.20", `203.0.113.${i}`))[0].status);
    expect(spoofed).toEqual([...Array(10).fill(200), 429]);

    // Behind one trusted proxy (its address is the peer) the entry it appended is the client.
    process.env.TRUST_PROXY = "1";
    resetConfigForTests();
    const proxied = [];
    for (let i = 0; i < 11; i++) proxied.push((await send("session", 1, "10.0.0.2", `203.0.113.${i}`))[0].status);
    expect(proxied).toEqual(Array(11).fill(200));
  });
});

describe("the configured Redis limiter", () => {
  it("keeps its counts under REDIS_KEY_PREFIX, so deployments sharing one Redis count apart", async () => {
    const prefix = `${uniquePrefix("configured")}:`;
    prefixes.push(prefix);
    process.env.REDIS_URL = testRedisUrl;
    process.env.REDIS_KEY_PREFIX = prefix;
    // What is counted where, not how fast: with the 50 ms default, a first check that also connects
    // on a busy machine was counted in the process instead (the policy's fallback), writing no key.
    process.env.REDIS_TIMEOUT_MS = "5000";
    resetConfigForTests();
    try {
      const limiter = createConfiguredRateLimiter();
      expect((await limiter.check(rateLimitPolicies.session, "198.51.100.20")).outcome).toBe("allowed");
      const keys = [];
      for await (const batch of redis.scanIterator({ MATCH: `${prefix}ratelimit:*` })) keys.push(...batch);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      delete process.env.REDIS_URL;
      delete process.env.REDIS_KEY_PREFIX;
      delete process.env.REDIS_TIMEOUT_MS;
      resetConfigForTests();
      await closeRedis();
    }
  });
});

describe("per-process limits (no Redis configured)", () => {
  it("is the backend when neither Upstash nor REDIS_URL is set", () => {
    delete process.env.REDIS_URL;
    delete process.env.UPSTASH_REDIS_REST_URL;
    resetConfigForTests();
    expect(createConfiguredRateLimiter().backend).toBe("memory");
    process.env.REDIS_URL = "redis://127.0.0.1:6379";
    resetConfigForTests();
    expect(createConfiguredRateLimiter().backend).toBe("redis");
    delete process.env.REDIS_URL;
    resetConfigForTests();
  });

  it("counts per client and window on its own clock", async () => {
    let now = WINDOW_START + 30_000;
    setRateLimiterForTests(new MemoryRateLimiter(() => now));
    const statuses = (await send("simulate", 101)).map((response) => response.status);
    expect(statuses).toEqual([...Array(100).fill(200), 429]);
    expect((await send("simulate", 1, "198.51.100.99"))[0].status).toBe(200);
    now = WINDOW_START + 60_000;
    expect((await send("simulate", 1))[0].status).toBe(200);
  });
});

describe("Redis stopped mid-test", () => {
  let server: DisposableRedis;
  beforeAll(async () => {
    server = await DisposableRedis.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("webhook lets calls through, simulate answers 503, the others count per process, then Redis is used again", async () => {
    const client = redisConnection(server.url, 150);
    try {
      setRateLimiterForTests(redisLimiter(client, uniquePrefix("outage")));
      const [before] = await send("elevenlabsWebhook", 1);
      expect(before.status).toBe(200);
      expect(before.headers.get("ratelimit-remaining")).toBe("999");

      await server.stop();

      const [webhook] = await send("elevenlabsWebhook", 1);
      expect(webhook.status).toBe(200);
      expect(webhook.headers.get("ratelimit-remaining")).toBeNull();

      const [simulate] = await send("simulate", 1);
      expect(simulate.status).toBe(503);
      expect(simulate.headers.get("retry-after")).toBe("5");
      expect(await simulate.json()).toMatchObject({ error: "Service unavailable", error_code: "SERVICE_UNAVAILABLE" });

      const session = (await send("session", 11)).map((response) => response.status);
      expect(session).toEqual([...Array(10).fill(200), 429]);

      await server.start();
      await expect.poll(async () => (await send("simulate", 1))[0].status, { timeout: 5_000 }).toBe(200);
      const [after] = await send("elevenlabsWebhook", 1);
      // A restarted Redis (no persistence here) starts counting afresh.
      expect(after.headers.get("ratelimit-remaining")).toBe("999");
    } finally {
      client.close();
    }
  });

  it("a hung Redis (SIGSTOP) costs a check at most the time bound, then nothing; counts are shared again once it resumes", async () => {
    const instances = [redisConnection(server.url, 100), redisConnection(server.url, 100)];
    const prefix = uniquePrefix("paused");
    const [first, second] = instances.map((connection) => redisLimiter(connection, prefix));
    const policy = rateLimitPolicies.session;
    try {
      expect((await first.check(policy, "198.51.100.30")).outcome).toBe("allowed");
      server.pause();
      try {
        const checks = [];
        for (let i = 0; i < 8; i++) {
          const started = Date.now();
          const { outcome } = await first.check(policy, "198.51.100.30");
          checks.push({ outcome, prompt: Date.now() - started < 1_000 });
        }
        // Counted in this process meanwhile ("local" policy), each answer within the bound.
        expect(checks).toEqual(Array(8).fill({ outcome: "allowed", prompt: true }));
        expect(first.breakerStatus().state).toBe("open");
      } finally {
        server.resume();
      }
      await expect.poll(() => first.breakerStatus().state, { timeout: 5_000 }).toBe("closed");
      // Both instances draw on one count in Redis again: each check lowers what the other sees.
      const remaining = [];
      for (let i = 0; i < 4; i++) remaining.push((await [first, second][i % 2].check(policy, "198.51.100.30")).remaining);
      expect(remaining.slice(1)).toEqual([remaining[0] - 1, remaining[0] - 2, remaining[0] - 3]);
    } finally {
      for (const connection of instances) connection.close();
    }
  });
});
