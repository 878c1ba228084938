import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { rateLimitPolicies } from "@/lib/contract/rate-limit-policies";
import { createConfiguredRateLimiter } from "@/lib/rate-limit/get-rate-limiter";
import type { RedisClient } from "@/lib/redis";
import { connect, deleteKeys, uniquePrefix } from "../support/redis";
import { startUpstashStandIn } from "../support/upstash-stand-in";

let redis: RedisClient;
const token = "test-upstash-token";
let standIn: Awaited<ReturnType<typeof startUpstashStandIn>>;

beforeAll(async () => {
  redis = await connect();
  standIn = await startUpstashStandIn(redis, token);
  process.env.UPSTASH_REDIS_REST_URL = standIn.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = token;
  process.env.REDIS_URL = "redis://127.0.0.1:1";
  // The stand-in answers over HTTP on a shared machine: a bound that load cannot trip.
  process.env.REDIS_TIMEOUT_MS = "1000";
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.UPSTASH_REDIS_REST_URL;
  delete process.env.UPSTASH_REDIS_REST_TOKEN;
  delete process.env.REDIS_URL;
  delete process.env.REDIS_TIMEOUT_MS;
  resetConfigForTests();
  await deleteKeys(redis, "mayday:ratelimit:session:upstash-test-");
  await standIn.close();
  redis.destroy();
});

describe("Upstash backend", () => {
  it("is chosen over REDIS_URL when its URL and token are set, and counts through the REST API", { timeout: 30_000 }, async () => {
    const limiter = createConfiguredRateLimiter();
    expect(limiter.backend).toBe("upstash");
    const policy = rateLimitPolicies.session;
    const client = `upstash-test-${uniquePrefix("client").replace(/:/g, "-")}`;
    // The window is fixed on the clock: with less than 15 s of it left (eleven checks take well under
    // a second), start in the next one, so that they all fall in one window.
    const leftInWindow = policy.windowMs - (Date.now() % policy.windowMs);
    if (leftInWindow < 15_000) await new Promise((resolve) => setTimeout(resolve, leftInWindow + 50));
    const outcomes = [];
    for (let i = 0; i < policy.limit + 1; i++) outcomes.push((await limiter.check(policy, client)).outcome);
    expect(outcomes).toEqual([...Array(policy.limit).fill("allowed"), "limited"]);
    expect(standIn.commands.some(([name]) => name.toUpperCase() === "EVALSHA")).toBe(true);
  });

  it("applies the policy when the REST API does not answer", async () => {
    await standIn.close();
    const limiter = createConfiguredRateLimiter();
    expect((await limiter.check(rateLimitPolicies.webhook, "198.51.100.1")).outcome).toBe("unmetered");
    expect((await limiter.check(rateLimitPolicies.simulate, "198.51.100.1")).outcome).toBe("unavailable");
  });
});
