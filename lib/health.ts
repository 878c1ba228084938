import { getDatabaseInfo, getDb } from "./db/client";
import { listMigrationNames } from "./db/migrations";
import type { HealthReport } from "./health-report";
import { getRateLimiter } from "./rate-limit";
import { countPending } from "./reconcile/pending";
import { getRedis } from "./redis";
import { getObjectStore } from "./storage";

export { healthReportSchema, type HealthReport } from "./health-report";

function reason(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}

async function pendingMigrations(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ migration_name: string }[]>`
    SELECT migration_name FROM _prisma_migrations
    WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  const applied = new Set(rows.map((row) => row.migration_name));
  return (await listMigrationNames()).filter((name) => !applied.has(name));
}

/** The REDIS_URL connection's breaker, and the rate limiter's when it has another (Upstash). */
function breakers(): HealthReport["redis"] {
  const statuses = new Map<string, HealthReport["redis"][number]>();
  const redis = getRedis();
  if (redis) statuses.set(redis.breaker.status().name, redis.breaker.status());
  const limiter = getRateLimiter().breakerStatus?.();
  if (limiter) statuses.set(limiter.name, limiter);
  return [...statuses.values()];
}

/** Is the service able to take calls: database reachable and migrated, payload store writable. */
export async function checkHealth(): Promise<HealthReport> {
  const report: HealthReport = {
    status: "ok",
    database: { ok: false },
    migrations: { ok: false, pending: [] },
    storage: { ok: false },
    backlog: { ok: false },
    redis: breakers(),
  };
  try {
    const db = await getDb();
    await db.$queryRaw`SELECT 1`;
    const info = await getDatabaseInfo();
    report.database = { ok: true, kind: info.kind, location: info.description };
    try {
      const pending = await pendingMigrations();
      report.migrations = { ok: pending.length === 0, pending };
    } catch (error) {
      report.migrations.error = reason(error);
    }
  } catch (error) {
    report.database.error = reason(error);
  }
  const store = getObjectStore();
  try {
    await store.checkWritable();
    report.storage = { ok: true, kind: store.kind };
  } catch (error) {
    report.storage = { ok: false, kind: store.kind, error: reason(error) };
  }
  try {
    report.backlog = { ok: true, pending: await countPending(store) };
  } catch (error) {
    report.backlog.error = reason(error);
  }
  if (!report.database.ok || !report.migrations.ok || !report.storage.ok) report.status = "unavailable";
  return report;
}
