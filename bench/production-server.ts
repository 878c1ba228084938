import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";

/** Every bench server runs with this API_KEY (an administrator's key) and this first administrator, and fetches no recordings. */
export const BENCH_API_KEY = "bench-api-key-0123456789abcdef";
export const BENCH_ADMIN = { email: "bench-admin@example.org", password: "bench administrator password" };
/** Headers of a request made as the bench's administrator key. */
export const benchAuth = { authorization: `Bearer ${BENCH_API_KEY}` } as const;
const benchAccess = {
  API_KEY: BENCH_API_KEY,
  ADMIN_EMAIL: BENCH_ADMIN.email,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
  // The sample Vapi and Retell events link to the platforms' own hosts: a bench never fetches them.
  RECORDING_ARCHIVER: "false",
};

/** Signs a browser context in as the bench's administrator, as a dispatcher's browser would be. */
export async function signInBrowser(context: BrowserContext, base: string): Promise<void> {
  const response = await context.request.post(`${base}/api/session`, { data: BENCH_ADMIN });
  if (response.status() !== 200) throw new Error(`sign-in answered ${response.status()}: ${await response.text()}`);
}

/**
 * The production server (.next/mayday-server.mjs, as `npm run start:production` runs it) on the
 * existing build (`npm run build` first), on `port`, with the given environment (a bench's own
 * database) and Node options (`nodeArgs`, e.g. --cpu-prof), in a process group of its own so that
 * its memory and CPU can be read and the whole group stopped.
 */
export interface ProductionServer {
  base: string;
  /** The server process itself (node .next/mayday-server.mjs). */
  pid: number;
  /** Resident set size of the server's processes, in MiB. */
  rssMiB(): number;
  /** CPU time the server's processes have used so far (user + system), in seconds. */
  cpuSeconds(): number;
  stop(): void;
}

export async function startProductionServer(port: number, env: Record<string, string>, nodeArgs: string[] = []): Promise<ProductionServer> {
  const entry = path.join(process.cwd(), ".next", "mayday-server.mjs");
  if (!existsSync(entry)) throw new Error("no production build: run `npm run build` first");
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      ...process.env,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), "mayday-bench-")),
      ...benchAccess,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const group = child.pid!;
  const server: ProductionServer = {
    base: `http://localhost:${port}`,
    pid: group,
    rssMiB() {
      const kib = execFileSync("ps", ["-o", "rss=", "-g", String(group)], { encoding: "utf8" })
        .split("\n")
        .reduce((sum, line) => sum + (Number(line.trim()) || 0), 0);
      return kib / 1024;
    },
    cpuSeconds() {
      const pids = execFileSync("ps", ["-o", "pid=", "-g", String(group)], { encoding: "utf8" }).split("\n").filter((pid) => pid.trim());
      let ticks = 0;
      for (const pid of pids) {
        try {
          // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
          const fields = readFileSync(`/proc/${pid.trim()}/stat`, "utf8").split(") ")[1].split(" ");
          ticks += Number(fields[11]) + Number(fields[12]);
        } catch {
          // the process ended between ps and the read
        }
      }
      return ticks / 100; // USER_HZ is 100 on Linux
    },
    stop() {
      try {
        process.kill(-group, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
  try {
    await waitUntilAnswering(`${server.base}/api/openapi.json`, Date.now() + 60_000);
  } catch (error) {
    server.stop();
    throw error;
  }
  return server;
}

/**
 * Instances A on `port` and B on `port + 100` over one database, behind a trusted proxy (the limits
 * per client stay on), without Redis; `extraEnv` adds to both (a platform's secrets, say).
 */
export async function withTwoInstances<T>(
  port: number,
  databaseUrl: string,
  work: (a: ProductionServer, b: ProductionServer) => Promise<T>,
  extraEnv: Record<string, string> = {},
): Promise<T> {
  const env = { ...extraEnv, DATABASE_URL: databaseUrl, TRUST_PROXY: "1", REDIS_URL: "" };
  const a = await startProductionServer(port, env);
  try {
    const b = await startProductionServer(port + 100, env);
    try {
      return await work(a, b);
    } finally {
      b.stop();
    }
  } finally {
    a.stop();
  }
}

/**
 * The production build on a fresh database (tests/e2e/serve.ts: `npm start`'s path) on `port`, for
 * benches that measure it from outside. `group` is the process group the server leads.
 */
export async function withProductionServer<T>(port: number, work: (base: string, group: number) => Promise<T>): Promise<T> {
  const base = `http://localhost:${port}`;
  const server = spawn("npx", ["tsx", "tests/e2e/serve.ts"], {
    env: { ...process.env, ...benchAccess, PORT: String(port), NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  try {
    await waitUntilAnswering(`${base}/api/health`, Date.now() + 300_000);
    return await work(base, server.pid!);
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

async function waitUntilAnswering(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer ${url} in time`);
}
