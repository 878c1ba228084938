import { getDatabaseKind, getDb } from "../db/client";
import { listMigrationNames } from "../db/migrations";
import { getRateLimiter } from "../rate-limit/get-rate-limiter";
import { countPending } from "../intake/pending";
import { getRedis } from "../redis";
import { getObjectStore } from "../storage/get-object-store";
import type { CircuitStatus } from "../circuit-breaker";
import type { CheckName, CheckOutcome } from "./report";

/**
 * How each readiness check of lib/health/report.ts runs. A check that throws, or answers later
 * than lib/health waits, counts as failed with an error code.
 */
export interface HealthCheck<Name extends CheckName> {
  /**
   * true: the service is not ready while this check fails (GET /api/health answers 503).
   * false: the failure shows in the outcome only (a fallback covers it).
   */
  required: boolean;
  run(): Promise<CheckOutcome<Name>>;
}

export const checks: { [Name in CheckName]: HealthCheck<Name> } = {
  /** The database answers a query. */
  database: {
    required: true,
    async run() {
      const db = await getDb();
      await db.$queryRaw`SELECT 1`;
      return { ok: true, kind: await getDatabaseKind() };
    },
  },
  /** Every migration in prisma/migrations is recorded as applied. */
  migrations: {
    required: true,
    async run() {
      const db = await getDb();
      const rows = await db.$queryRaw<{ migration_name: string }[]>`
        SELECT migration_name FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
      const applied = new Set(rows.map((row) => row.migration_name));
      const pending = (await listMigrationNames()).filter((name) => !applied.has(name));
      return { ok: pending.length === 0, pending };
    },
  },
  /** The payload store answers and takes our credentials; nothing is written (see checkAvailable). */
  storage: {
    required: true,
    async run() {
      const store = getObjectStore();
      await store.checkAvailable();
      return { ok: true, kind: store.kind };
    },
  },
  /** Payloads deferred while the database was down: the dashboard shows them as waiting. */
  backlog: {
    required: false,
    async run() {
      return { ok: true, pending: await countPending() };
    },
  },
  /** The Redis (or Upstash) breakers: open means fallbacks apply, which keeps the service ready. */
  redis: {
    required: false,
    async run() {
      const breakers = new Map<string, CircuitStatus>();
      const redis = getRedis();
      if (redis) breakers.set(redis.breaker.status().name, redis.breaker.status());
      const limiter = getRateLimiter().breakerStatus?.();
      if (limiter) breakers.set(limiter.name, limiter);
      const reported = [...breakers.values()].map(({ name, state, since }) => ({
        name: name as "redis" | "upstash",
        state,
        ...(since ? { since } : {}),
      }));
      return { ok: reported.every((breaker) => breaker.state === "closed"), breakers: reported };
    },
  },
};
