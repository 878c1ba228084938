import pg from "pg";
import { getConfig } from "../config";
import { getEmbeddedDatabase } from "../db/client";
import { log } from "../log";

/**
 * Wakes this process's feed reader when calls change anywhere. The calls table's statement
 * trigger NOTIFYs `mayday_calls_changed` at commit; a wake-up carries no data (readers then read
 * the feed from their cursor), so a notification lost while reconnecting loses no change: every
 * (re)connection wakes the reader once, and it reads whatever committed meanwhile.
 *
 * PostgreSQL: ONE dedicated node-postgres connection per process LISTENs (not a pooled one: a
 * pool would hand it back and drop the LISTEN). PGlite: the embedded database's in-process LISTEN.
 */
export const CHANGES_CHANNEL = "mayday_calls_changed";

export interface ChangeNotifier {
  /** Calls `onWake` after each change commit (merged, at least once) and after each reconnection. */
  start(onWake: () => void): void;
  stop(): Promise<void>;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

function postgresNotifier(connectionString: string): ChangeNotifier {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (onWake: () => void) => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000, keepAlive: true });
    const retry = (error: unknown) => {
      if (stopped || client !== next) return;
      client = undefined;
      log.warn({ err: error }, "change notifications lost their connection; reconnecting");
      void next.end().catch(() => {});
      timer = setTimeout(() => void connect(onWake), delay);
      timer.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    client = next;
    next.on("error", retry);
    next.on("end", () => retry(new Error("connection ended")));
    next.on("notification", () => onWake());
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      delay = RECONNECT_MIN_MS;
      // Whatever committed while there was no LISTEN is read now.
      onWake();
    } catch (error) {
      retry(error);
    }
  };

  return {
    start: (onWake) => void connect(onWake),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}

function embeddedNotifier(): ChangeNotifier {
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  return {
    start(onWake) {
      void (async () => {
        try {
          const database = await getEmbeddedDatabase();
          if (!database || stopped) return;
          unlisten = await database.listen(CHANGES_CHANNEL, () => onWake());
          onWake();
        } catch (error) {
          log.warn({ err: error }, "change notifications unavailable; the feed is read on a timer");
        }
      })();
    },
    async stop() {
      stopped = true;
      await unlisten?.().catch(() => {});
    },
  };
}

export function createChangeNotifier(): ChangeNotifier {
  const { DATABASE_URL } = getConfig();
  return DATABASE_URL ? postgresNotifier(DATABASE_URL) : embeddedNotifier();
}
