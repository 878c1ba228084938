import pg from "pg";
import { getConfig } from "../config";
import { log } from "../log";
import { getEmbeddedDatabase } from "./client";

/**
 * Wakes this process when something changes anywhere, through PostgreSQL's LISTEN/NOTIFY: a
 * trigger NOTIFYs a channel at commit; a wake-up carries no data (the listener re-reads what it
 * follows), so a notification lost while reconnecting loses nothing: every (re)connection wakes the
 * listener once, and `onLost` tells it when notifications cannot arrive.
 *
 * Channels: `mayday_calls_changed` (the change feed, lib/live/tail.ts) and `mayday_access_changed`
 * (people, sessions and keys, lib/access/access-cache.ts).
 *
 * PostgreSQL: one dedicated node-postgres connection per channel and process LISTENs (not a pooled
 * one: a pool would hand it back and drop the LISTEN). PGlite: the embedded database's in-process LISTEN.
 */
export interface ChangeNotifier {
  /**
   * Calls `onWake` after each change commit (merged, at least once) and after each (re)connection;
   * `onLost` when the connection is lost (notifications may be missed until the next `onWake`).
   */
  start(onWake: () => void, onLost?: () => void): void;
  stop(): Promise<void>;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

function postgresNotifier(connectionString: string, channel: string): ChangeNotifier {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (onWake: () => void, onLost?: () => void) => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000, keepAlive: true });
    const retry = (error: unknown) => {
      if (stopped || client !== next) return;
      client = undefined;
      onLost?.();
      log.warn({ err: error, channel }, "change notifications lost their connection; reconnecting");
      void next.end().catch(() => {});
      timer = setTimeout(() => void connect(onWake, onLost), delay);
      timer.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    client = next;
    next.on("error", retry);
    next.on("end", () => retry(new Error("connection ended")));
    next.on("notification", () => onWake());
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      delay = RECONNECT_MIN_MS;
      // Whatever committed while there was no LISTEN is read now.
      onWake();
    } catch (error) {
      retry(error);
    }
  };

  return {
    start: (onWake, onLost) => void connect(onWake, onLost),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}

function embeddedNotifier(channel: string): ChangeNotifier {
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  return {
    start(onWake) {
      void (async () => {
        try {
          const database = await getEmbeddedDatabase();
          if (!database || stopped) return;
          unlisten = await database.listen(channel, () => onWake());
          onWake();
        } catch (error) {
          log.warn({ err: error, channel }, "change notifications unavailable");
        }
      })();
    },
    async stop() {
      stopped = true;
      await unlisten?.().catch(() => {});
    },
  };
}

export function createNotifier(channel: string): ChangeNotifier {
  const { DATABASE_URL } = getConfig();
  return DATABASE_URL ? postgresNotifier(DATABASE_URL, channel) : embeddedNotifier(channel);
}
