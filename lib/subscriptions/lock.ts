import pg from "pg";
import { log } from "../log";

/**
 * One instance serves a subscription at a time. PostgreSQL: a session advisory lock per
 * subscription, held on one dedicated connection per worker (not a pooled one, which would carry
 * the lock off to another query), released when the subscription is caught up or fails, and by
 * PostgreSQL itself when the process dies. Losing that connection loses every lock: the worker then
 * stops sending for each before another instance can take it over. PGlite is one process: a set.
 */

/** The first key of the two-key advisory lock: subscriptions (the second is hashtext(id)). */
export const SUBSCRIPTION_LOCK_CLASS = 7243002;

export interface SubscriptionLocks {
  tryLock(id: string): Promise<boolean>;
  unlock(id: string): Promise<void>;
  /** Whether this worker still holds the lock (false once the lock connection was lost). */
  holds(id: string): boolean;
  close(): Promise<void>;
}

function postgresLocks(connectionString: string): SubscriptionLocks {
  let client: Promise<pg.Client> | undefined;
  const held = new Set<string>();
  const connection = () => {
    client ??= (async () => {
      const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000, keepAlive: true, application_name: "mayday-subscriptions" });
      const lost = (error: unknown) => {
        if (held.size > 0) log.warn({ err: error }, "subscription lock connection lost; deliveries stop until relocked");
        held.clear();
        client = undefined;
      };
      next.on("error", lost);
      next.on("end", () => lost(new Error("connection ended")));
      await next.connect();
      return next;
    })().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
  // One statement at a time on the connection (node-postgres no longer queues them itself).
  let last: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const next = last.catch(() => {}).then(async () => work(await connection()));
    last = next;
    return next;
  };
  return {
    async tryLock(id) {
      const { rows } = await serially((client) =>
        client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [SUBSCRIPTION_LOCK_CLASS, id]));
      if (rows[0].locked) held.add(id);
      return rows[0].locked;
    },
    async unlock(id) {
      if (!held.delete(id)) return;
      await serially((client) => client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [SUBSCRIPTION_LOCK_CLASS, id])).catch(() => {});
    },
    holds: (id) => held.has(id),
    async close() {
      const open = client;
      client = undefined;
      held.clear();
      await open?.then((c) => c.end()).catch(() => {});
    },
  };
}

const embeddedHeld = new Set<string>();

function embeddedLocks(): SubscriptionLocks {
  const mine = new Set<string>();
  return {
    tryLock(id) {
      if (embeddedHeld.has(id)) return Promise.resolve(false);
      embeddedHeld.add(id);
      mine.add(id);
      return Promise.resolve(true);
    },
    unlock(id) {
      if (mine.delete(id)) embeddedHeld.delete(id);
      return Promise.resolve();
    },
    holds: (id) => mine.has(id),
    close() {
      for (const id of mine) embeddedHeld.delete(id);
      mine.clear();
      return Promise.resolve();
    },
  };
}

/** PostgreSQL's advisory locks on `databaseUrl`, or the in-process set for PGlite. */
export function createSubscriptionLocks(databaseUrl: string | undefined): SubscriptionLocks {
  return databaseUrl ? postgresLocks(databaseUrl) : embeddedLocks();
}
