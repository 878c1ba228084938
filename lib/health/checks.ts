import { z } from "zod";
import { getDatabaseKind, getDb } from "../db/client";
import { listMigrationNames } from "../db/migrations";
import { getObjectStore } from "../storage";
import { checkOutcomeSchema, type HealthCheck } from "./check";

/** The database answers a query. */
export const databaseCheck = {
  required: true,
  outcome: checkOutcomeSchema.extend({ kind: z.enum(["postgresql", "pglite"]).optional() }),
  async run() {
    const db = await getDb();
    await db.$queryRaw`SELECT 1`;
    return { ok: true, kind: await getDatabaseKind() };
  },
} satisfies HealthCheck;

/** Every migration in prisma/migrations is recorded as applied. */
export const migrationsCheck = {
  required: true,
  outcome: checkOutcomeSchema.extend({
    pending: z.array(z.string()).optional().describe("Migrations in the repository the database has not had"),
  }),
  async run() {
    const db = await getDb();
    const rows = await db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    const applied = new Set(rows.map((row) => row.migration_name));
    const pending = (await listMigrationNames()).filter((name) => !applied.has(name));
    return { ok: pending.length === 0, pending };
  },
} satisfies HealthCheck;

/** The payload store answers and accepts our credentials; nothing is written (see checkAvailable). */
export const storageCheck = {
  required: true,
  outcome: checkOutcomeSchema.extend({ kind: z.string().optional() }),
  async run() {
    const store = getObjectStore();
    await store.checkAvailable();
    return { ok: true, kind: store.kind };
  },
} satisfies HealthCheck;
