import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The production server (.next/mayday-server.mjs, as `npm run start:production` runs it) on the
 * existing build (`npm run build` first), on `port`, with the given environment, in a process group of its own
 * so that its resident memory can be sampled and the whole group stopped.
 */
export interface ProductionServer {
  base: string;
  /** Resident set size of the server's processes, in MiB. */
  rssMiB(): number;
  /** CPU time the server's processes have used so far (user + system), in seconds. */
  cpuSeconds(): number;
  stop(): void;
}

export async function startProductionServer(port: number, env: Record<string, string>): Promise<ProductionServer> {
  const entry = path.join(process.cwd(), ".next", "mayday-server.mjs");
  if (!existsSync(entry)) throw new Error("no production build: run `npm run build` first");
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), "mayday-bench-")),
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
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${server.base}/api/openapi.json`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  server.stop();
  throw new Error("the production server did not answer within 60 s");
}
