import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { migrateDatabase, openMigrationTarget } from "@/lib/db/client";
import { applyFunctions, functionsDir, readFunctions } from "@/lib/db/functions";
import { applyMigrations, listMigrationNames, migrationsDir, type SqlSession } from "@/lib/db/migrations";
import { applyWithSchemaEngine } from "@/lib/db/new-migration";
import { admin, dropDatabase, withDatabase } from "../setup/test-database";
import { MIGRATE_FROM_EMPTY_TIMEOUT_MS } from "../support/timeouts";

const info = inject("testDatabase");
const server = info.server;
const created: string[] = [];

async function emptyDatabase(label: string): Promise<string> {
  const name = `mayday_test_${info.runId}_mig_${label}_${process.pid}`;
  await admin(server!, (client) => client.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  return withDatabase(server!, name);
}

/** Runs `work` on one session of the database at `url`. */
async function onDatabase<T>(url: string, work: (session: SqlSession) => Promise<T>): Promise<T> {
  const target = await openMigrationTarget(parseConfig({ DATABASE_URL: url }));
  try {
    return await target.withSession(work);
  } finally {
    await target.close();
  }
}

async function viaSchemaEngine(url: string): Promise<string[]> {
  const target = await openMigrationTarget(parseConfig({ DATABASE_URL: url }));
  try {
    return await applyWithSchemaEngine(target.adapterFactory);
  } finally {
    await target.close();
  }
}

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  applied_steps_count: number;
}

const history = (url: string) =>
  onDatabase(url, (session) =>
    session.query<HistoryRow>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`,
    ),
  );

/** Tables, columns, indexes and constraints: what two migrators must agree on. */
const schemaOf = (url: string) =>
  onDatabase(url, async (session) => [
    ...(await session.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name, column_name`,
    )),
    ...(await session.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`)),
    ...(await session.query(
      `SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint
       WHERE connamespace = 'public'::regnamespace ORDER BY conname`,
    )),
  ]);

afterAll(async () => {
  for (const name of created) await dropDatabase(server!, name);
});

describe.runIf(info.kind === "postgresql")("the plain-SQL migrator on PostgreSQL", () => {
  it("applies every migration once, recording Prisma's rows with the file's SHA-256", async () => {
    const url = await emptyDatabase("plain");
    const names = await listMigrationNames();
    expect(names.length).toBeGreaterThan(0);
    expect(await onDatabase(url, (session) => applyMigrations(session))).toEqual(names);
    expect(await onDatabase(url, (session) => applyMigrations(session))).toEqual([]);
    const rows = await history(url);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const file = readFileSync(path.join(migrationsDir, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(file).digest("hex"));
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it("agrees with Prisma's own schema engine both ways: same rows, same schema, nothing left to apply", async () => {
    const plain = await emptyDatabase("agree_plain");
    const engine = await emptyDatabase("agree_engine");
    await onDatabase(plain, (session) => applyMigrations(session));
    expect(await viaSchemaEngine(engine)).toEqual(await listMigrationNames());
    // Each migrator sees the other's history as complete.
    expect(await viaSchemaEngine(plain)).toEqual([]);
    expect(await onDatabase(engine, (session) => applyMigrations(session))).toEqual([]);
    const rows = (rowsOf: HistoryRow[]) => rowsOf.map(({ migration_name, checksum }) => ({ migration_name, checksum }));
    expect(rows(await history(plain))).toEqual(rows(await history(engine)));
    expect(await schemaOf(plain)).toEqual(await schemaOf(engine));
  });

  it("rolls a failing migration back whole, keeps the ones before it, and applies it once fixed", async () => {
    const url = await emptyDatabase("failing");
    const directory = await mkdtemp(path.join(tmpdir(), "mayday-migrations-"));
    try {
      await cp(migrationsDir, directory, { recursive: true });
      const broken = path.join(directory, "99990101000000_broken");
      await mkdir(broken);
      await writeFile(
        path.join(broken, "migration.sql"),
        `CREATE TABLE half_done (id INTEGER);\nSELECT no_such_function();\n`,
      );
      await expect(onDatabase(url, (session) => applyMigrations(session, directory))).rejects.toThrow(
        /99990101000000_broken failed and was rolled back: .*no_such_function/,
      );
      expect((await history(url)).map((row) => row.migration_name)).toEqual(await listMigrationNames());
      const tables = await onDatabase(url, (session) =>
        session.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`),
      );
      expect(tables).toEqual([]);

      await writeFile(path.join(broken, "migration.sql"), `CREATE TABLE half_done (id INTEGER);\n`);
      expect(await onDatabase(url, (session) => applyMigrations(session, directory))).toEqual(["99990101000000_broken"]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("refuses to go on past a migration Prisma's CLI recorded as failed", async () => {
    const url = await emptyDatabase("recorded_failure");
    await onDatabase(url, (session) => applyMigrations(session));
    await onDatabase(url, (session) =>
      session.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ('x', 'y', '99990101000000_cli', now())`,
      ),
    );
    await expect(onDatabase(url, (session) => applyMigrations(session))).rejects.toThrow(
      /99990101000000_cli is recorded as failed/,
    );
  });

  it("lets concurrent starts apply each migration exactly once (Prisma's advisory lock)", async () => {
    const url = await emptyDatabase("concurrent");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => onDatabase(url, (session) => applyMigrations(session))),
    );
    expect(results.flat().sort()).toEqual(await listMigrationNames());
    expect((await history(url)).length).toBe((await listMigrationNames()).length);
  });
});

describe.runIf(info.kind === "postgresql")("the database's functions as source (prisma/functions)", () => {
  const functionsOf = (url: string) =>
    onDatabase(url, (session) =>
      session.query<{ name: string }>(
        `SELECT p.proname AS name FROM pg_proc p
         WHERE p.pronamespace = 'public'::regnamespace
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
         ORDER BY 1`,
      ),
    );
  const locationKey = (url: string, text: string) =>
    onDatabase(url, async (session) => (await session.query<{ key: string }>(`SELECT incident_location_key($1) AS key`, [text]))[0].key);
  const recorded = (url: string) =>
    onDatabase(url, (session) => session.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM schema_functions ORDER BY name`));

  it("defines every function of the database in a file of its own, each recorded with its SHA-256", async () => {
    const url = await emptyDatabase("functions");
    await onDatabase(url, (session) => applyMigrations(session));
    const sources = await readFunctions();
    expect((await functionsOf(url)).map(({ name }) => name)).toEqual(sources.map(({ name }) => name));
    expect(await recorded(url)).toEqual(sources.map(({ name, checksum }) => ({ name, checksum })));
    expect(await onDatabase(url, (session) => applyFunctions(session))).toEqual([]);
  });

  it("re-applies a changed file, and a file that fails leaves every function and checksum as it was", async () => {
    const url = await emptyDatabase("functions_changed");
    await onDatabase(url, (session) => applyMigrations(session));
    const directory = await mkdtemp(path.join(tmpdir(), "mayday-functions-"));
    try {
      await cp(functionsDir, directory, { recursive: true });
      const file = path.join(directory, "incident_location_key.sql");
      const original = readFileSync(file, "utf8");
      expect(await locationKey(url, "12  Main St.")).toBe("12 main st");
      await writeFile(file, original.replace("lower(location)", "upper(location)").replace("'[^a-z0-9]+'", "'[^A-Z0-9]+'"));
      expect(await onDatabase(url, (session) => applyFunctions(session, directory))).toEqual(["incident_location_key"]);
      expect(await locationKey(url, "12  Main St.")).toBe("12 MAIN ST");
      expect(await onDatabase(url, (session) => applyFunctions(session, directory))).toEqual([]);
      const before = await recorded(url);

      await writeFile(file, original);
      await writeFile(path.join(directory, "zz_broken.sql"), `CREATE OR REPLACE FUNCTION zz_broken() RETURNS int LANGUAGE sql AS $$ SELECT no_such_column FROM calls $$;\n`);
      await expect(onDatabase(url, (session) => applyFunctions(session, directory))).rejects.toThrow(/zz_broken .*no_such_column/);
      expect(await locationKey(url, "12  Main St.")).toBe("12 MAIN ST");
      expect(await recorded(url)).toEqual(before);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("the plain-SQL migrator on the embedded PGlite database", () => {
  it("creates and migrates a new data directory, then finds it up to date", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "mayday-pglite-migrate-"));
    try {
      const config = parseConfig({ DATA_DIR: dataDir });
      expect((await migrateDatabase(config)).applied).toEqual(await listMigrationNames());
      expect((await migrateDatabase(config)).applied).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, MIGRATE_FROM_EMPTY_TIMEOUT_MS);
});
