import { createClient } from "redis";
import { CircuitBreaker } from "./circuit-breaker";
import { getConfig } from "./config";
import { log } from "./log";
import { existingPart, forgetPart, processPart } from "./process-parts";

/**
 * One connection to the plain Redis of REDIS_URL, shared by rate limits and the listing cache.
 * Redis is an accelerator and a shared counter, never the record of a call: every command goes
 * through a circuit breaker that bounds it in time (REDIS_TIMEOUT_MS) and, once Redis failed a few
 * times in a row, answers "unavailable" at once while probing Redis in the background.
 */
export interface RedisOptions {
  url: string;
  /** Upper bound of each command, in milliseconds. */
  timeoutMs: number;
  /** Time between background probes while the breaker is open. */
  breakerMs?: number;
}

/** Failures in a row (errors or timeouts) that open the breaker. */
const FAILURES_TO_OPEN = 3;
/** Reconnection attempts back off up to this, so a restarted Redis is used again within seconds. */
const MAX_RECONNECT_DELAY_MS = 1_000;

function failFastClient({ url, timeoutMs }: RedisOptions) {
  return createClient({
    url,
    // Commands fail at once while disconnected instead of queueing behind the reconnection.
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    socket: {
      // Connecting happens in the background; requests never wait for it beyond timeoutMs.
      connectTimeout: Math.max(timeoutMs, 1_000),
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
    },
  });
}

export type RedisClient = ReturnType<typeof failFastClient>;

/** A connected-on-demand client that logs one line per outage. */
export function createRedisClient(options: RedisOptions): RedisClient {
  const client = failFastClient(options);
  let reported = false;
  client.on("error", (error: Error) => {
    if (!reported) log.warn({ err: error.message }, "redis unavailable");
    reported = true;
  });
  client.on("ready", () => {
    if (reported) log.info("redis available again");
    reported = false;
  });
  // The first connection may fail; the client keeps reconnecting on its own.
  client.connect().catch(() => undefined);
  return client;
}

/** Resolves when the client is ready, or after `timeoutMs` (its commands then fail fast). */
export async function whenReady(client: RedisClient, timeoutMs: number): Promise<RedisClient> {
  if (client.isReady) return client;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.on("ready", done);
  });
  return client;
}

export class RedisConnection {
  readonly client: RedisClient;
  readonly breaker: CircuitBreaker;

  constructor(private readonly options: RedisOptions) {
    this.client = createRedisClient(options);
    this.breaker = new CircuitBreaker({
      name: "redis",
      timeoutMs: options.timeoutMs,
      openMs: options.breakerMs ?? 1_000,
      failureThreshold: FAILURES_TO_OPEN,
      probe: async () => {
        if (!this.client.isReady) throw new Error("not connected");
        await this.client.ping();
      },
    });
  }

  /**
   * Runs Redis work within the time bound. Throws (CircuitOpenError, CallTimeoutError or Redis's
   * own error) when Redis cannot answer: every caller has a fallback.
   */
  run<T>(work: (client: RedisClient) => Promise<T>): Promise<T> {
    return this.breaker.run(async () => work(await whenReady(this.client, this.options.timeoutMs)));
  }

  close(): void {
    this.breaker.dispose();
    if (this.client.isOpen) this.client.destroy();
  }
}

const REDIS_PART = "redis";

/**
 * The REDIS_URL connection, created on first use; undefined when REDIS_URL is unset. One per
 * process: every route must share one client and one breaker (health reports the breaker the other
 * routes use).
 */
export function getRedis(): RedisConnection | undefined {
  const { REDIS_URL, REDIS_TIMEOUT_MS, REDIS_BREAKER_MS } = getConfig();
  if (!REDIS_URL) return undefined;
  return processPart(
    REDIS_PART,
    () => new RedisConnection({ url: REDIS_URL, timeoutMs: REDIS_TIMEOUT_MS, breakerMs: REDIS_BREAKER_MS }),
    (connection) => connection.close(),
  );
}

export async function closeRedis(): Promise<void> {
  const connection = existingPart<RedisConnection>(REDIS_PART);
  forgetPart(REDIS_PART, connection);
  connection?.close();
}

/** `<REDIS_KEY_PREFIX><parts joined by ":">`. */
export function redisKey(...parts: string[]): string {
  return `${getConfig().REDIS_KEY_PREFIX}${parts.join(":")}`;
}
