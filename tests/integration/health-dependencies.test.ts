import { apiRequest } from "@/tests/support/auth";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { openCallsCache } from "@/lib/board/listing-cache";
import { resetConfigForTests } from "@/lib/config";
import { resetHealthForTests } from "@/lib/health/check-readiness";
import { markPending } from "@/lib/intake/pending";
import { closeRedis } from "@/lib/redis";
import { setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { DisposableRedis } from "../support/redis";

/** Each check's outcome (API_KEY is unset in tests, so the details are in the body). */
const health = async () => {
  const response = await GET(apiRequest("http://localhost/api/health"), undefined);
  return { httpStatus: response.status, ...(await response.json()) };
};

describe("GET /api/health reports what the service rides out", () => {
  beforeEach(() => {
    // Every request runs the checks afresh.
    process.env.HEALTH_CHECK_INTERVAL_MS = "0";
    resetConfigForTests();
    resetHealthForTests();
  });

  afterEach(async () => {
    setObjectStoreForTests(undefined);
    await closeRedis();
    delete process.env.REDIS_URL;
    delete process.env.REDIS_BREAKER_MS;
    delete process.env.HEALTH_CHECK_INTERVAL_MS;
    resetConfigForTests();
  });

  it("counts the payloads waiting for the database", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "mayday-health-backlog-"));
    try {
      const store = new LocalObjectStore(directory);
      setObjectStoreForTests(store);
      expect((await health()).checks.backlog).toEqual({ ok: true, pending: 0 });
      await markPending("calls/conv_a/conv_a_20260101_000000.json", store);
      await markPending("calls/conv_b/conv_b_20260101_000000.json", store);
      const report = await health();
      // A backlog is shown, but the service still takes calls.
      expect(report.checks.backlog).toEqual({ ok: true, pending: 2 });
      expect(report.httpStatus).toBe(200);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("shows the Redis breaker open while Redis is down and closed once it answers again", async () => {
    const redis = await DisposableRedis.start();
    try {
      process.env.REDIS_URL = redis.url;
      process.env.REDIS_BREAKER_MS = "200";
      resetConfigForTests();
      const probe = async () => (await openCallsCache()).get("probe");
      await probe();
      expect((await health()).checks.redis).toEqual({ ok: true, breakers: [{ name: "redis", state: "closed" }] });

      await redis.stop();
      for (let i = 0; i < 3; i++) await probe();
      const report = await health();
      // Fallbacks cover it: still ready.
      expect(report.httpStatus).toBe(200);
      expect(report.checks.redis).toEqual({ ok: false, breakers: [{ name: "redis", state: "open", since: expect.any(String) }] });

      await redis.start();
      await expect.poll(async () => (await health()).checks.redis.breakers[0].state, { timeout: 5_000 }).toBe("closed");
    } finally {
      await redis.stop();
    }
  });
});
