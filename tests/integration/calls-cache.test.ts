import { apiRequest } from "@/tests/support/auth";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/calls/route";
import { markOwnWrite } from "@/lib/feed";
import { getConfig, resetConfigForTests } from "@/lib/config";
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

async function newest(): Promise<{ conversation_id: string; summary: string }> {
  const response = await GET(apiRequest("http://localhost/api/calls?limit=1"), undefined);
  return (await response.json()).calls[0];
}

const newestId = async () => (await newest()).conversation_id;

/** A time, in whole seconds, after every call written so far: the next call is the newest. */
let newestAt = 0;
function nextNewest(): Date {
  newestAt = (Math.floor(Math.max(newestAt, Date.now()) / 1000) + 1) * 1000;
  return new Date(newestAt);
}

/** A call newer than every other, written straight to the table as another instance would (no bump here). */
let written = 0;
async function writeWithoutBump(): Promise<string> {
  const [call] = makeCalls(1, 500 + written);
  const id = `cache-${written++}-${randomUUID()}`;
  await insertCalls(await getDb(), [{ ...call, conversationId: id, callId: null, simulation: false, occurredAt: nextNewest() }]);
  return id;
}

/**
 * A change the feed does not number (triggers off, as no writer of the service can do): the
 * listing keeps showing what it cached, since its key is the feed's number.
 */
async function changeOutsideTheFeed(conversationId: string, summary: string): Promise<void> {
  const db = await getDb();
  await db.$transaction([
    db.$executeRaw`SET LOCAL session_replication_role = replica`,
    db.$executeRaw`UPDATE calls SET summary = ${summary} WHERE conversation_id = ${conversationId}`,
  ]);
}

/** The cache serves what it holds until the feed moves; a write here is in the very next read. */
async function expectKeyedByTheFeed(): Promise<void> {
  const before = await newest();
  const summary = `changed outside the feed ${randomUUID()}`;
  await changeOutsideTheFeed(before.conversation_id, summary);
  expect(await newest()).toEqual(before);
  const id = await writeWithoutBump();
  markOwnWrite();
  expect(await newestId()).toBe(id);
  const response = await GET(apiRequest("http://localhost/api/calls?limit=2"), undefined);
  expect((await response.json()).calls[1]).toMatchObject({ conversation_id: before.conversation_id, summary });
}

/** Another instance's write: this one learns of it from the feed's notification, without a bump. */
async function expectOtherWritesSeen(): Promise<void> {
  const before = await total();
  const id = await writeWithoutBump();
  await expect.poll(newestId, { timeout: 10_000 }).toBe(id);
  expect(await total()).toBe(before + 1);
}

beforeAll(async () => {
  await insertCalls(await getDb(), makeCalls(30, 11));
});

describe("calls cache, in-process", () => {
  it("serves what it holds until the change feed moves, and a write here on the next read", async () => {
    await expectKeyedByTheFeed();
  });

  it("shows another instance's write once the feed's notification arrives", async () => {
    await expectOtherWritesSeen();
  });

  it.skipIf(!getConfig().DATABASE_URL)("shows a call another app instance took (another process, no Redis): total and newest page", async () => {
    const before = await total();
    await newestId(); // cached here
    const eventTime = nextNewest().getTime() / 1000;
    await promisify(execFile)("npx", ["tsx", "tests/support/instance-b.ts", "conv-cache-instance-b", String(eventTime)], {
      env: { ...process.env, LOG_LEVEL: "silent" },
      timeout: 60_000,
    });
    await expect.poll(newestId, { timeout: 10_000 }).toBe("conv-cache-instance-b");
    expect(await total()).toBe(before + 1);
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

  it("serves what it holds until the change feed moves, and a write here on the next read", async () => {
    await expectKeyedByTheFeed();
  });

  it("shows another instance's write once the feed's notification arrives", async () => {
    await expectOtherWritesSeen();
  });

  it("reads the database when Redis cannot be reached", async () => {
    await closeRedis();
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    resetConfigForTests();
    try {
      const before = await total();
      await writeWithoutBump();
      expect(await total()).toBe(before + 1);
      markOwnWrite();
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
  ] as const)("%s: reads answer at once from the database, the breaker opens, and what was cached before a write made meanwhile is not served after", async (_, breakRedis, restoreRedis) => {
    const cached = await total();
    await breakRedis();
    try {
      await writeWithoutBump();
      markOwnWrite();
      const reads = [];
      for (let i = 0; i < 6; i++) reads.push(await timedTotal());
      expect(reads).toEqual(Array(6).fill({ total: cached + 1, prompt: true }));
      expect(getRedis()!.breaker.status().state).toBe("open");
    } finally {
      await restoreRedis();
    }
    await expect.poll(() => getRedis()!.breaker.status().state, { timeout: 5_000 }).toBe("closed");
    // Redis still holds the entry cached before the outage, under the feed's earlier number.
    expect(await total()).toBe(cached + 1);
  });
});
