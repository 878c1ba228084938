/**
 * Database tasks without Prisma's native engine (which cannot be downloaded here):
 *   tsx scripts/db.ts deploy        apply pending migrations to DATABASE_URL or the embedded DB
 *   tsx scripts/db.ts new <name>    write a migration for the changes in prisma/schema.prisma
 */
import { loadEnvConfig } from "@next/env";
import { getConfig } from "../lib/config";
import { migrateDatabase } from "../lib/db/client";
import { createMigration } from "../lib/db/new-migration";

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  // The same .env files Next reads (`npm run dev` migrates, then serves with them).
  loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production");
  if (command === "deploy") {
    const { applied, description } = await migrateDatabase(getConfig());
    console.log(
      applied.length > 0
        ? `Applied ${applied.length} migration(s) to ${description}: ${applied.join(", ")}`
        : `${description} is up to date.`,
    );
    return;
  }
  if (command === "new" && name) {
    const directory = await createMigration(name);
    console.log(directory ? `Wrote ${directory}` : "No schema changes.");
    return;
  }
  console.error("usage: tsx scripts/db.ts deploy | new <name>");
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
