import { apiRequest } from "@/tests/support/auth";
import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/calls/route";
import { bumpCallsVersion } from "@/lib/calls/cache";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { closeRedis, getRedis } from "@/lib/redis";
import { insertCalls, makeCalls } from "../support/calls";
import { DisposableRedis } from "../support/redis";

const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

async function total(query = ""): Promise<number> {
  const response = await GET(apiRequest(`http://localhost/api/calls?${query}`), undefined);
  expect(response.status).toBe(200);
  return (await response.json()).pagination.total;
}

async function newestId(): Promise<string> {
  const response = await GET(apiRequest("http://localhost/api/calls?limit=1"), undefined);
  return (await response.json()).calls[0].conversation_id;
}

/** A call newer than every other, written straight to the table as another writer would. */
let written = 0;
async function writeWithoutBump(): Promise<string> {
  const [call] = makeCalls(1, 500 + written);
  const id = `cache-${written++}-${randomUUID()}`;
  await insertCalls(await getDb(), [{ ...call, conversationId: id, callId: null, simulation: false, occurredAt: new Date(Date.now() + written * 1000) }]);
  return id;
}

/** The write is served only once the version moves: the cache works, and the version is its key. */
async function expectVersionedCache(bump: () => Promise<void>): Promise<void> {
  const before = await total();
  const newestBefore = await newestId();
  const id = await writeWithoutBump();
  expect(await total()).toBe(before);
  expect(await newestId()).toBe(newestBefore);
  await bump();
  expect(await total()).toBe(before + 1);
  expect(await newestId()).toBe(id);
}

beforeAll(async () => {
  await insertCalls(await getDb(), makeCalls(30, 11));
});

describe("calls cache, in-process", () => {
  it("serves repeated reads from the cache and the next read after a bump from the database", async () => {
    await expectVersionedCache(bumpCallsVersion);
  });
});

describe("calls cache, shared through Redis", () => {
  const prefix = `mayday-test:${randomUUID()}:`;
  const admin = createClient({ url: REDIS_URL });

  beforeAll(async () => {
    await admin.connect();
    process.env.REDIS_URL = REDIS_URL;
    process.env.REDIS_KEY_PREFIX = prefix;
    // What is tested here is the cache, not the time bound: a loaded machine must not trip it.
    process.env.REDIS_TIMEOUT_MS = "1000";
    resetConfigForTests();
  });

  afterAll(async () => {
    for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
      if (keys.length > 0) await admin.del(keys);
    }
    await admin.close();
    await closeRedis();
    delete process.env.REDIS_URL;
    delete process.env.REDIS_KEY_PREFIX;
    delete process.env.REDIS_TIMEOUT_MS;
    resetConfigForTests();
  });

  it("keeps entries under the configured prefix with the documented lifetimes", async () => {
    await total("status=active");
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) keys.push(...batch);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const ttls = await Promise.all(keys.map((key) => admin.ttl(key)));
    for (const ttl of ttls) expect(ttl).toBeGreaterThan(100);
    expect(Math.max(...ttls)).toBeLessThanOrEqual(600);
  });

  it("shows a write on the next read once this instance bumps the version", async () => {
    await expectVersionedCache(bumpCallsVersion);
  });

  it("shows a write on the next read once another instance bumps the shared version", async () => {
    await expectVersionedCache(async () => {
      await admin.incr(`${prefix}calls:version`);
    });
  });

  it("reads the database when Redis cannot be reached", async () => {
    await closeRedis();
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    resetConfigForTests();
    try {
      const before = await total();
      await writeWithoutBump();
      expect(await total()).toBe(before + 1);
      await bumpCallsVersion();
    } finally {
      await closeRedis();
      process.env.REDIS_URL = REDIS_URL;
      resetConfigForTests();
    }
  });
});

describe("calls cache while Redis is stopped or hung (a redis-server of the test's own)", () => {
  let server: DisposableRedis;

  beforeAll(async () => {
    // Persistent, so entries cached before a stop are still there after the restart.
    server = await DisposableRedis.start({ persistent: true });
    process.env.REDIS_URL = server.url;
    process.env.REDIS_TIMEOUT_MS = "100";
    process.env.REDIS_BREAKER_MS = "200";
    resetConfigForTests();
  });

  afterAll(async () => {
    await closeRedis();
    await server.dispose();
    delete process.env.REDIS_URL;
    delete process.env.REDIS_TIMEOUT_MS;
    delete process.env.REDIS_BREAKER_MS;
    resetConfigForTests();
  });

  /** The read's answer and whether it came back promptly (a hung Redis would hold it for good). */
  async function timedTotal(): Promise<{ total: number; prompt: boolean }> {
    const started = Date.now();
    const value = await total();
    return { total: value, prompt: Date.now() - started < 1_000 };
  }

  it.each([
    ["paused (SIGSTOP)", () => server.pause(), () => server.resume()],
    ["stopped", () => server.stop(), () => server.start()],
  ] as const)("%s: reads answer at once from the database, the breaker opens, and a bump owed from the outage is paid when it closes", async (_, breakRedis, restoreRedis) => {
    const cached = await total();
    await writeWithoutBump();
    // Served from the cache: the write has not been announced.
    expect(await total()).toBe(cached);

    await breakRedis();
    try {
      // The write is announced while Redis is unreachable: the bump fails and is owed.
      await bumpCallsVersion();
      const reads = [];
      for (let i = 0; i < 6; i++) reads.push(await timedTotal());
      expect(reads).toEqual(Array(6).fill({ total: cached + 1, prompt: true }));
      expect(getRedis()!.breaker.status().state).toBe("open");
    } finally {
      await restoreRedis();
    }
    await expect.poll(() => getRedis()!.breaker.status().state, { timeout: 5_000 }).toBe("closed");
    // The entry cached before the outage still holds the old total: only the owed bump hides it
    // (a paused Redis also runs the INCR it received before the pause once it resumes).
    await expect.poll(() => total(), { timeout: 2_000 }).toBe(cached + 1);
    expect(await total()).toBe(cached + 1);
  });
});
