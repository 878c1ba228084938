import { createClient } from "redis";
import { getConfig } from "./config";
import { log } from "./log";

/**
 * One shared connection to the plain Redis of REDIS_URL (rate limits, listing cache). Redis is an
 * optimisation and a shared counter, never the record of a call: commands fail fast instead of
 * queueing while it is unreachable, so callers can fall back at once.
 */
export interface RedisOptions {
  url: string;
  /** Upper bound of a connection attempt and of each command, in milliseconds. */
  timeoutMs: number;
}

function failFastClient({ url, timeoutMs }: RedisOptions) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    socket: {
      connectTimeout: timeoutMs,
      // Keep trying in the background with a capped backoff; requests meanwhile fail fast.
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000),
    },
  });
}

export type RedisClient = ReturnType<typeof failFastClient>;

export function createRedisClient(options: RedisOptions): RedisClient {
  const client = failFastClient(options);
  let reported = false;
  client.on("error", (error: Error) => {
    // One line per outage, not one per reconnect attempt.
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

let shared: RedisClient | undefined;

/** The REDIS_URL client, connected on first use; undefined when REDIS_URL is unset. */
export async function getRedis(): Promise<RedisClient | undefined> {
  const { REDIS_URL, REDIS_TIMEOUT_MS } = getConfig();
  if (!REDIS_URL) return undefined;
  shared ??= createRedisClient({ url: REDIS_URL, timeoutMs: REDIS_TIMEOUT_MS });
  return whenReady(shared, REDIS_TIMEOUT_MS);
}

export async function closeRedis(): Promise<void> {
  const client = shared;
  shared = undefined;
  if (client?.isOpen) client.destroy();
}

/** `<REDIS_KEY_PREFIX><parts joined by ":">`. */
export function redisKey(...parts: string[]): string {
  return `${getConfig().REDIS_KEY_PREFIX}${parts.join(":")}`;
}
