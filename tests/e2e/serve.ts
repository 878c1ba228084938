/**
 * The server the browser tests talk to: a production build on a database of its own
 * (PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set, else a temporary PGlite directory;
 * always PGlite with E2E_EMBEDDED=1).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { admin, serverUrl, withDatabase } from "../setup/test-database";

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  env.DATA_DIR = await mkdtemp(path.join(tmpdir(), "mayday-e2e-"));
  const server = process.env.E2E_EMBEDDED === "1" ? undefined : serverUrl();
  delete env.DATABASE_URL;
  if (server) {
    const name = `mayday_e2e_${process.env.PORT ?? "3100"}`;
    await admin(server, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    });
    env.DATABASE_URL = withDatabase(server, name);
  }
  if (!existsSync(env.CHROMIUM_PATH ?? "/usr/bin/chromium")) {
    console.error("Browser tests need Debian's Chromium: apt-get install -y chromium");
  }
  // A direct child (not through npx, which may exit before the server it started): its exit is the server's.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  // The server has closed its database by now: its directory goes with it.
  child.on("exit", (code) => void rm(env.DATA_DIR!, { recursive: true, force: true }).finally(() => process.exit(code ?? 0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
