import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlSession } from "./sql-session";

/**
 * The database's functions as source (docs/architecture.md, "Data"): each trigger function and
 * SQL function is defined once, in `prisma/functions/<name>.sql` (CREATE OR REPLACE FUNCTION
 * <name>), and re-applied when its file's SHA-256 differs from the one recorded in
 * `schema_functions`, like Flyway's repeatable migrations. Migrations keep the tables and the
 * triggers that name the functions, but for a trigger on a function added since: its function's file
 * creates it (CREATE OR REPLACE TRIGGER), as it cannot exist before the function. CREATE OR REPLACE cannot change a function's arguments or
 * result type: such a change drops the function in a migration first.
 */
export const functionsDir = path.join(process.cwd(), "prisma", "functions");

export interface FunctionSource {
  /** The file's name without `.sql`: the function it defines. */
  name: string;
  sql: string;
  checksum: string;
}

export async function readFunctions(directory = functionsDir): Promise<FunctionSource[]> {
  if (!existsSync(directory)) return [];
  const files = (await readdir(directory)).filter((file) => file.endsWith(".sql")).sort();
  return Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(path.join(directory, file));
      return { name: file.slice(0, -".sql".length), sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
}

/**
 * Applies every function whose file changed since it was last applied, all in one transaction
 * (a file that fails leaves every function and checksum as it was); answers the names applied.
 * Runs after the migrations, under the migrator's lock (lib/db/migrations.ts).
 */
export async function applyFunctions(session: SqlSession, directory = functionsDir): Promise<string[]> {
  const sources = await readFunctions(directory);
  if (sources.length === 0) return [];
  const recorded = new Map(
    (await session.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM "schema_functions"`)).map((row) => [row.name, row.checksum]),
  );
  const changed = sources.filter((source) => recorded.get(source.name) !== source.checksum);
  if (changed.length === 0) return [];
  await session.execute("BEGIN");
  try {
    for (const source of changed) {
      try {
        await session.execute(source.sql);
      } catch (error) {
        throw new Error(`function ${source.name} (prisma/functions/${source.name}.sql) failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      await session.query(
        `INSERT INTO "schema_functions" (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        [source.name, source.checksum],
      );
    }
    await session.execute("COMMIT");
  } catch (error) {
    await session.execute("ROLLBACK").catch(() => {});
    throw error;
  }
  return changed.map((source) => source.name);
}
