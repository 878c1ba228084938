import { createClient } from "redis";
import { getConfig } from "./config";
import { log } from "./log";

/**
 * The process's Redis connection (node-redis), when REDIS_URL is set. One client per URL, kept on
 * globalThis so every route bundle of the Next.js server shares it. Commands fail at once while
 * the connection is down (no offline queue): callers fall back instead of waiting.
 */
const CONNECT_TIMEOUT_MS = 2_000;

function createRedisClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5_000),
    },
  });
}

export type RedisClient = ReturnType<typeof createRedisClient>;

interface Entry {
  client: RedisClient;
  /** Settles when the first connection attempt has ended (or timed out). */
  firstAttempt: Promise<void>;
}

const registry = globalThis as typeof globalThis & { [key: symbol]: Map<string, Entry> | undefined };
const KEY = Symbol.for("mayday.redis.clients");

function clients(): Map<string, Entry> {
  registry[KEY] ??= new Map();
  return registry[KEY];
}

function open(url: string): Entry {
  const client = createRedisClient(url);
  let lastError = "";
  client.on("error", (error: unknown) => {
    // Reconnection repeats the same error; log each distinct one.
    const message = error instanceof Error ? error.message : String(error);
    if (message !== lastError) log.warn({ err: error }, "redis connection error");
    lastError = message;
  });
  client.on("ready", () => {
    lastError = "";
  });
  const connecting = client.connect().then(
    () => undefined,
    () => undefined,
  );
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref());
  return { client, firstAttempt: Promise.race([connecting, timeout]) };
}

/** The shared client, or undefined when no Redis is configured. */
export async function getRedis(): Promise<RedisClient | undefined> {
  const url = getConfig().REDIS_URL;
  if (!url) return undefined;
  let entry = clients().get(url);
  if (!entry) {
    entry = open(url);
    clients().set(url, entry);
  }
  await entry.firstAttempt;
  return entry.client;
}

/** `<REDIS_KEY_PREFIX><parts joined by ":">`. */
export function redisKey(...parts: string[]): string {
  return `${getConfig().REDIS_KEY_PREFIX}${parts.join(":")}`;
}

/** Closes every connection (tests, shutdown). */
export async function closeRedis(): Promise<void> {
  const entries = [...clients().values()];
  clients().clear();
  await Promise.all(entries.map(({ client }) => (client.isOpen ? client.close() : client.destroy())));
}
