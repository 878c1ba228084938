import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import { serverUrl, withDatabase } from "../setup/test-database";

/**
 * A second app instance for the browser tests: the same production build, started as `npm start`
 * does, on the database tests/e2e/serve.ts created for the first server (PostgreSQL only: PGlite
 * is one process). A session cookie of localhost is sent to every port, so a browser context
 * signed in on the first server is signed in on this one too (sessions live in the database).
 */
export interface SecondInstance {
  url: string;
  stop(): Promise<void>;
}

export async function startSecondInstance(): Promise<SecondInstance> {
  const server = serverUrl();
  if (!server) throw new Error("a second instance needs PostgreSQL (TEST_DATABASE_URL)");
  const firstPort = Number(process.env.E2E_PORT ?? 3100);
  // The first server's port + 1 is the embedded project's (playwright.config.ts).
  const port = firstPort + 2;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    DATABASE_URL: withDatabase(server, `mayday_e2e_${firstPort}`),
    DATA_DIR: await mkdtemp(path.join(tmpdir(), "mayday-e2e-second-")),
  };
  delete env.ADMIN_EMAIL;
  delete env.ADMIN_PASSWORD;
  const child: ChildProcess = spawn("npx", ["tsx", "scripts/start.ts"], { env, stdio: "ignore", detached: true });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://localhost:${port}`;
  const stop = async () => {
    // Its own process group: the server under npx and tsx stops with it.
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    await exited;
    await rm(env.DATA_DIR!, { recursive: true, force: true });
  };
  try {
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`the second instance exited with ${child.exitCode}`);
          return fetch(`${url}/api/health?probe=live`).then((response) => response.status, () => 0);
        },
        { timeout: 120_000, intervals: [500] },
      )
      .toBe(200);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
