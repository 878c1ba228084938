/**
 * Cost of one rate-limit check per backend: `npx tsx bench/rate-limit.ts` (Redis at TEST_REDIS_URL
 * or 127.0.0.1:6379). Sequential checks, as one request handler makes them.
 */
import { MemoryRateLimiter } from "../lib/rate-limit/memory";
import type { RateLimiter } from "../lib/rate-limit/types";
import { connect, deleteKeys, redisConnection, redisLimiter, uniquePrefix } from "../tests/support/redis";

const policy = { bucket: "bench", limit: 1_000_000, windowMs: 60_000, whenStoreDown: "refuse" as const };

async function measure(name: string, limiter: RateLimiter, checks = 5_000): Promise<void> {
  for (let i = 0; i < 200; i++) await limiter.check(policy, `warm-${i % 50}`);
  const started = performance.now();
  for (let i = 0; i < checks; i++) await limiter.check(policy, `client-${i % 500}`);
  const ms = performance.now() - started;
  console.log(`${name}: ${(ms / checks).toFixed(3)} ms per check, ${Math.round((checks / ms) * 1000)} checks/s`);
}

async function main(): Promise<void> {
  await measure("per process", new MemoryRateLimiter());
  const client = await connect();
  const connection = redisConnection();
  const prefix = uniquePrefix("bench");
  try {
    await measure("redis (node-redis + rate-limiter-flexible)", redisLimiter(connection, prefix));
  } finally {
    await deleteKeys(client, prefix);
    client.destroy();
    connection.close();
  }
}

void main();
