import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRedisClient, RedisConnection, whenReady, type RedisClient } from "../../lib/redis";
import { RedisCounter } from "../../lib/rate-limit/redis-counter";
import { StoreRateLimiter } from "../../lib/rate-limit/store-rate-limiter";

/** The machine's Redis (CI: 127.0.0.1:6379). Tests only touch keys under their own prefix. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export const uniquePrefix = (name: string) =>
  `mayday-test:${name}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

/**
 * A plain client for the test's own bookkeeping (scanning, deleting its keys, serving a stand-in),
 * once connected: like production's, it fails a command sent while offline instead of queueing it.
 */
export async function connect(url = testRedisUrl, timeoutMs = 500): Promise<RedisClient> {
  const client = await whenReady(createRedisClient({ url, timeoutMs }), 10_000);
  if (!client.isReady) throw new Error(`Redis at ${url} did not answer within 10 s`);
  return client;
}

/**
 * A connection like production's REDIS_URL one (bounded calls, circuit breaker). The default bound
 * is generous: a loaded test machine must not open the breaker; outage tests pass their own.
 */
export function redisConnection(url = testRedisUrl, timeoutMs = 500, breakerMs = 200): RedisConnection {
  return new RedisConnection({ url, timeoutMs, breakerMs });
}

/** A limiter like production's REDIS_URL one, on a connection and key prefix of the test's own. */
export function redisLimiter(connection: RedisConnection, prefix: string): StoreRateLimiter {
  return new StoreRateLimiter({
    backend: "redis",
    counter: new RedisCounter(connection.client, prefix),
    guard: connection,
    breaker: connection.breaker,
  });
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
  private constructor(
    readonly port: number,
    /** With a directory, every write is on disk before it is answered and survives a restart. */
    private readonly dataDir?: string,
  ) {}

  static async start(options: { persistent?: boolean } = {}): Promise<DisposableRedis> {
    const dataDir = options.persistent ? await mkdtemp(path.join(tmpdir(), "mayday-redis-")) : undefined;
    const redis = new DisposableRedis(await freePort(), dataDir);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const persistence = this.dataDir
      ? ["--dir", this.dataDir, "--appendonly", "yes", "--appendfsync", "always"]
      : ["--appendonly", "no"];
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", ...persistence],
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

  /** Stops the server for good and removes its data. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  /** SIGSTOP: the server keeps its connections open and answers nothing (a hung server, a partition). */
  pause(): void {
    this.process?.kill("SIGSTOP");
  }

  resume(): void {
    this.process?.kill("SIGCONT");
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
