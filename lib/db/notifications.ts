import pg from "pg";
import { getConfig } from "../config";
import { log } from "../log";
import { processPart } from "../process-parts";
import { getEmbeddedDatabase } from "./client";

/**
 * Wakes this process when another transaction, on any instance, commits a change it follows. A
 * trigger NOTIFYs at commit; a wake-up carries no data (whoever is woken reads from the database
 * what it needs), so a notification lost while reconnecting loses nothing: every (re)connection
 * wakes every listener once, and each reads whatever committed meanwhile.
 *
 * PostgreSQL: ONE dedicated node-postgres connection per process LISTENs to every channel (not a
 * pooled one: a pool would hand it back and drop the LISTEN), open while anyone listens. PGlite:
 * the embedded database's in-process LISTEN.
 */
export const CHANNELS = {
  /** calls_changed_notify: the change feed moved (lib/feed/wake.ts). */
  feed: "mayday_calls_changed",
  /** access_changed: a person, session or key changed (access_version moved). */
  access: "mayday_access_changed",
} as const;
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

interface Connection {
  stop(): Promise<void>;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

function postgresConnection(connectionString: string, wake: (channel?: string) => void): Connection {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000, keepAlive: true });
    const retry = (error: unknown) => {
      if (stopped || client !== next) return;
      client = undefined;
      log.warn({ err: error }, "change notifications lost their connection; reconnecting");
      void next.end().catch(() => {});
      timer = setTimeout(() => void connect(), delay);
      timer.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    client = next;
    next.on("error", retry);
    next.on("end", () => retry(new Error("connection ended")));
    next.on("notification", (message) => wake(message.channel));
    try {
      await next.connect();
      for (const channel of Object.values(CHANNELS)) await next.query(`LISTEN ${channel}`);
      delay = RECONNECT_MIN_MS;
      // Whatever committed while there was no LISTEN is read now.
      wake();
    } catch (error) {
      retry(error);
    }
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}

function embeddedConnection(wake: (channel?: string) => void): Connection {
  const unlisten: (() => Promise<void>)[] = [];
  let stopped = false;
  void (async () => {
    try {
      const database = await getEmbeddedDatabase();
      if (!database) return;
      for (const channel of Object.values(CHANNELS)) {
        const stop = await database.listen(channel, () => wake(channel));
        if (stopped) return void (await stop());
        unlisten.push(stop);
      }
      wake();
    } catch (error) {
      log.warn({ err: error }, "change notifications unavailable; the database is read on a timer");
    }
  })();
  return {
    async stop() {
      stopped = true;
      await Promise.all(unlisten.map((stop) => stop().catch(() => {})));
    },
  };
}

interface Hub {
  listeners: Map<Channel, Set<() => void>>;
  connection?: Connection;
}

// One per process: every route bundle shares this process's connection.
function hub(): Hub {
  return processPart<Hub>(
    "database notifications",
    () => ({ listeners: new Map() }),
    async (state) => {
      state.listeners.clear();
      const connection = state.connection;
      state.connection = undefined;
      await connection?.stop();
    },
  );
}

/** Calls every listener of `channel`, or of every channel after a (re)connection. */
function wake(channel?: string): void {
  for (const [name, listeners] of hub().listeners) {
    if (channel === undefined || channel === name) for (const listener of [...listeners]) listener();
  }
}

/**
 * Calls `onWake` after each commit that notifies `channel` (merged, at least once) and after each
 * reconnection. Answers the function that stops listening; the last one closes the connection.
 */
export function listen(channel: Channel, onWake: () => void): () => Promise<void> {
  const state = hub();
  const listeners = state.listeners.get(channel) ?? new Set();
  state.listeners.set(channel, listeners);
  listeners.add(onWake);
  if (!state.connection) {
    const { DATABASE_URL } = getConfig();
    state.connection = DATABASE_URL ? postgresConnection(DATABASE_URL, wake) : embeddedConnection(wake);
  }
  let listening = true;
  return async () => {
    if (!listening) return;
    listening = false;
    listeners.delete(onWake);
    if ([...state.listeners.values()].some((set) => set.size > 0)) return;
    const connection = state.connection;
    state.connection = undefined;
    await connection?.stop();
  };
}
