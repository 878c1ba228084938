import pg from "pg";
import { parseConfig, resetConfigForTests } from "../lib/config";
import { closeDb, migrateDatabase } from "../lib/db/client";
import { admin, dropDatabase, withDatabase } from "../tests/setup/test-database";

/**
 * Runs `work` against a fresh, migrated database on `server`, with the app's config pointed at it,
 * and drops the database afterwards: benchmarks never touch a database anyone else uses.
 */
export async function withScratchDatabase<T>(server: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `mayday_bench_${Date.now().toString(36)}`;
  const url = withDatabase(server, name);
  await admin(server, (client) => client.query(`CREATE DATABASE "${name}"`));
  try {
    await migrateDatabase(parseConfig({ DATABASE_URL: url }));
    process.env.DATABASE_URL = url;
    resetConfigForTests();
    return await work(url);
  } finally {
    await closeDb();
    await dropDatabase(server, name);
  }
}

/** withScratchDatabase with a PostgreSQL client connected to it (to seed and inspect), closed afterwards. */
export async function withScratchClient<T>(server: string, work: (client: pg.Client, url: string) => Promise<T>): Promise<T> {
  return withScratchDatabase(server, async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client, url);
    } finally {
      await client.end().catch(() => {});
    }
  });
}
