import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createRedisClient, whenReady, type RedisClient } from "../../lib/redis";
import { NodeRedisScripts } from "../../lib/rate-limit/redis-scripts";
import { StoreRateLimiter } from "../../lib/rate-limit/store";

/** The machine's Redis (CI: 127.0.0.1:6379). Tests only touch keys under their own prefix. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export const uniquePrefix = (name: string) =>
  `mayday-test:${name}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

export function connect(url = testRedisUrl, timeoutMs = 500): RedisClient {
  return createRedisClient({ url, timeoutMs });
}

/** A limiter like production's REDIS_URL one, on a client and key prefix of the test's own. */
export function redisLimiter(client: RedisClient, prefix: string, timeoutMs = 500): StoreRateLimiter {
  const scripts = new NodeRedisScripts(() => whenReady(client, timeoutMs));
  return new StoreRateLimiter({ backend: "redis", redis: scripts.asUpstashRedis(), prefix, timeoutMs });
}

export async function deleteKeys(client: RedisClient, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    if (keys.length > 0) await client.del(keys);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A redis-server of the test's own, which the test may stop and start again. */
export class DisposableRedis {
  private process: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<DisposableRedis> {
    const redis = new DisposableRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Ready to accept connections")) resolve();
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  }
}
