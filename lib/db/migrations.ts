import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { applyFunctions } from "./functions";
import type { SqlSession } from "./sql-session";

export type { SqlSession } from "./sql-session";

/**
 * The migrator every start uses (npm start, start:production, tests, benches): each pending
 * `prisma/migrations/<name>/migration.sql` in name order, each in a transaction of its own together
 * with its `_prisma_migrations` row. The rows are the ones `prisma migrate deploy` writes (checksum:
 * SHA-256 of the file), so Prisma's CLI, or the schema engine behind `npm run db:new-migration`,
 * sees the same history. Plain SQL through the database driver: no Prisma CLI or schema engine,
 * so it runs with production dependencies only.
 *
 * Then the functions of prisma/functions whose files changed (lib/db/functions.ts).
 *
 * A migration must be able to run inside a transaction (no CREATE INDEX CONCURRENTLY, no
 * BEGIN/COMMIT of its own); in exchange a failure leaves nothing half-applied and no row behind.
 */
export const migrationsDir = path.join(process.cwd(), "prisma", "migrations");

/** The advisory lock `prisma migrate deploy` holds on PostgreSQL: two migrators never overlap. */
const MIGRATE_LOCK_KEY = 72707369;

/** Prisma's own definition of its history table. */
const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  /** Hex SHA-256 of migration.sql, as Prisma records it. */
  checksum: string;
}

export async function listMigrationNames(directory = migrationsDir): Promise<string[]> {
  if (!existsSync(directory)) return [];
  const entries = await readdir(directory, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export async function readMigrations(directory = migrationsDir): Promise<Migration[]> {
  return Promise.all(
    (await listMigrationNames(directory)).map(async (name) => {
      const bytes = await readFile(path.join(directory, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ").trim();
}

interface HistoryRow {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Applies every pending migration in `directory`; answers the names it applied. */
export async function applyMigrations(session: SqlSession, directory = migrationsDir): Promise<string[]> {
  const migrations = await readMigrations(directory);
  await session.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
  try {
    await session.execute(HISTORY_TABLE);
    const history = await session.query<HistoryRow>(
      `SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    // Prisma's CLI leaves such a row when a migration fails half-way; it needs a human decision.
    const failed = history.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new Error(
        `migration ${failed.migration_name} is recorded as failed; resolve it first (prisma migrate resolve)`,
      );
    }
    const applied = new Set(history.filter((row) => row.rolled_back_at === null).map((row) => row.migration_name));
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await session.execute("BEGIN");
      try {
        await session.execute(migration.sql);
        await session.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await session.execute("COMMIT");
      } catch (error) {
        await session.execute("ROLLBACK").catch(() => {});
        throw new Error(`migration ${migration.name} failed and was rolled back: ${oneLine(error)}`, { cause: error });
      }
      appliedNow.push(migration.name);
    }
    await applyFunctions(session, path.join(directory, "..", "functions"));
    return appliedNow;
  } finally {
    await session.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]).catch(() => {});
  }
}
