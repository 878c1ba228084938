import { spawn } from "node:child_process";

/**
 * The production build on a fresh database (tests/e2e/serve.ts: `npm start`'s path) on `port`, for
 * benches that measure it from outside. `group` is the process group the server leads.
 */
export async function withProductionServer<T>(port: number, work: (base: string, group: number) => Promise<T>): Promise<T> {
  const base = `http://localhost:${port}`;
  const server = spawn("npx", ["tsx", "tests/e2e/serve.ts"], {
    env: { ...process.env, PORT: String(port), NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  try {
    await waitForHealth(base, Date.now() + 300_000);
    return await work(base, server.pid!);
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

async function waitForHealth(base: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the server did not become healthy in time");
}
