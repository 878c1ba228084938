import { cp, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/**
 * Each test run gets its own migrated template database, and each test file its own copy of it,
 * so files run in parallel and can assert on totals. PostgreSQL when TEST_DATABASE_URL (or
 * DATABASE_URL) names a server, else the embedded PGlite (a template directory, copied per file).
 */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops a database once its connections are gone. pg's pool.end() resolves before its sockets have
 * closed; dropping WITH (FORCE) at that moment kills them mid-goodbye, and pg throws that as an
 * uncaught error in the process that owned the pool. FORCE stays for connections that never close.
 */
export async function dropDatabase(server: string, name: string): Promise<void> {
  await admin(server, async (client) => {
    for (let waited = 0; waited < 5_000; waited += 50) {
      const { rows } = await client.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1",
        [name],
      );
      if (rows[0].open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

export interface TemplateInfo {
  kind: "postgresql" | "pglite";
  /** PostgreSQL: the template database's name; PGlite: the template data directory. */
  template: string;
  server?: string;
  runId: string;
  /**
   * Where each file's data directory is made: the run's teardown removes it whole, so a file whose
   * tests were all skipped (vitest runs no afterAll there) leaves nothing behind either.
   */
  filesDir: string;
}

/** A fresh database for one test file: answers the env to use and a cleanup. */
export async function createFileDatabase(
  info: TemplateInfo,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  // Local object store and any other files of the file's app instance.
  const dataDir = await mkdtemp(path.join(info.filesDir, "file-"));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  if (info.kind === "postgresql" && info.server) {
    const name = `mayday_test_${info.runId}_${suffix}`;
    const server = info.server;
    await admin(server, async (client) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`CREATE DATABASE "${name}" TEMPLATE "${info.template}"`);
          return;
        } catch (error) {
          // Two files copying the template at the same instant: try again shortly.
          if (attempt >= 10 || !/being accessed/.test(String(error))) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    });
    return {
      env: { DATABASE_URL: withDatabase(server, name), DATA_DIR: dataDir },
      drop: async () => {
        await dropDatabase(server, name);
        await removeDataDir();
      },
    };
  }
  await cp(info.template, path.join(dataDir, "pglite"), { recursive: true });
  return {
    env: { DATA_DIR: dataDir },
    drop: removeDataDir,
  };
}
