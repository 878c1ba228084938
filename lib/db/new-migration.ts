import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type {
  MigrationList,
  SchemaEngine,
} from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { listMigrationNames, migrationsDir } from "./migrations";
import { openEmbeddedDatabase } from "./pglite";

/**
 * `npm run db:new-migration`: Prisma's own schema engine, compiled to WebAssembly (the native
 * engine cannot be downloaded on these machines), diffs the migration history against
 * prisma/schema.prisma. A development tool only (a devDependency): migrations are applied by the
 * plain-SQL migrator in ./migrations, which writes the same `_prisma_migrations` rows.
 */
const projectRoot = process.cwd();
const schemaPath = path.join(projectRoot, "prisma", "schema.prisma");
const lockFileName = "migration_lock.toml";
const noFilter = { externalTables: [], externalEnums: [] };

type SchemaEngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
let enginePromise: Promise<SchemaEngineModule> | undefined;

function loadSchemaEngineModule(): Promise<SchemaEngineModule> {
  // The package's entry imports the .wasm as an ES module (experimental in Node), so the module
  // is instantiated by hand from the file next to its JS glue.
  enginePromise ??= (async () => {
    const require = createRequire(path.join(projectRoot, "package.json"));
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const runtime = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as SchemaEngineModule & {
      __wbg_set_wasm(exports: unknown): void;
    };
    const wasm = new WebAssembly.Module(
      await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm")),
    );
    const instance = new WebAssembly.Instance(wasm, {
      "./schema_engine_bg.js": runtime as unknown as WebAssembly.ModuleImports,
    });
    runtime.__wbg_set_wasm(instance.exports);
    (instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start();
    return runtime;
  })();
  return enginePromise;
}

/**
 * adapter-pg's executeScript splits a migration on every ";", which cuts a function body
 * (`$$ ... ; ... $$`) apart. Send the script whole in one simple-protocol query instead, as the
 * native `prisma migrate` does; PGlite's adapter already executes scripts whole.
 */
function withWholeScripts(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  const wrap = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    const driver = (adapter as { underlyingDriver?: () => unknown }).underlyingDriver?.();
    if (!(driver instanceof pg.Pool)) return adapter;
    return Object.assign(Object.create(adapter) as SqlDriverAdapter, {
      executeScript: async (script: string) => {
        await driver.query(script);
      },
    });
  };
  return Object.assign(Object.create(factory) as SqlMigrationAwareDriverAdapterFactory, {
    connect: async () => wrap(await factory.connect()),
    connectToShadowDb: async () => wrap(await factory.connectToShadowDb()),
  });
}

async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const runtime = await loadSchemaEngineModule();
  const engine = await runtime.SchemaEngine.new(
    { datamodels: undefined },
    () => {},
    bindMigrationAwareSqlAdapterFactory(withWholeScripts(adapterFactory)),
  );
  try {
    return await work(engine);
  } finally {
    engine.free();
  }
}

async function readMigrationList(): Promise<MigrationList> {
  const lockPath = path.join(migrationsDir, lockFileName);
  const names = await listMigrationNames();
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: lockFileName,
      content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: {
            tag: "ok" as const,
            value: await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8"),
          },
        },
      })),
    ),
  };
}

/**
 * Prisma's own `migrate deploy`, run by the schema engine: the reference the plain-SQL migrator is
 * checked against (tests/integration/migrations.test.ts). Answers the names it applied.
 */
export async function applyWithSchemaEngine(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await readMigrationList();
  return withSchemaEngine(adapterFactory, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList, filters: noFilter });
    return result.appliedMigrationNames;
  });
}

/**
 * Writes `prisma/migrations/<timestamp>_<name>/migration.sql` with the SQL that takes the
 * migration history to prisma/schema.prisma, diffed on a throwaway in-memory database.
 * Answers the new directory, or undefined when the schema has no changes.
 */
export async function createMigration(name: string): Promise<string | undefined> {
  const shadow = await openEmbeddedDatabase();
  try {
    const existing = await readMigrationList();
    const schemaFiles = [{ path: schemaPath, content: await readFile(schemaPath, "utf8") }];
    const sql = await withSchemaEngine(new PrismaPGlite(shadow.pglite), async (engine) => {
      if (existing.migrationDirectories.length > 0) {
        await engine.applyMigrations({ migrationsList: existing, filters: noFilter });
      }
      const diff = await engine.diff({
        from: { tag: "schemaDatasource", files: schemaFiles, configDir: projectRoot },
        to: { tag: "schemaDatamodel", files: schemaFiles },
        script: true,
        exitCode: true,
        filters: noFilter,
      });
      return diff.exitCode === 0 ? undefined : diff.stdout;
    });
    if (!sql) return undefined;

    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
    const directory = path.join(migrationsDir, `${stamp}_${slug}`);
    await mkdir(directory, { recursive: true });
    await writeFile(path.join(directory, "migration.sql"), sql);
    const lockPath = path.join(migrationsDir, lockFileName);
    if (!existsSync(lockPath)) {
      await writeFile(
        lockPath,
        '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
      );
    }
    return directory;
  } finally {
    await shadow.close();
  }
}
