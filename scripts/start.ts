/**
 * `npm start`: check the configuration, build when the sources changed since the last build
 * (`npm run build`), then run the production server, which migrates and serves (scripts/server.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadEnvConfig } from "@next/env";
import { ConfigError, getConfig } from "../lib/config";

const root = process.cwd();
const sourceRoots = [
  "app",
  "components",
  "lib",
  "public",
  "scripts/build.ts",
  "scripts/server-bundle.ts",
  "scripts/server.ts",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
const buildStamp = path.join(root, ".next", "mayday-source-hash");

function hashSources(): string {
  const hash = createHash("sha256");
  const visit = (entry: string) => {
    if (!existsSync(entry) || entry.includes(`${path.sep}generated`)) return;
    if (statSync(entry).isDirectory()) {
      for (const child of readdirSync(entry).sort()) visit(path.join(entry, child));
    } else {
      hash.update(entry).update(readFileSync(entry));
    }
  };
  sourceRoots.forEach((entry) => visit(path.join(root, entry)));
  return hash.digest("hex");
}

function buildIfNeeded(): void {
  const sources = hashSources();
  if (existsSync(buildStamp) && readFileSync(buildStamp, "utf8") === sources) return;
  console.log("Building the app (sources changed since the last build)...");
  // A direct child (not through npm), so that a stop signal reaches the build itself.
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts"], { stdio: "inherit", env: process.env });
  if (result.status !== 0) throw new Error("the build failed");
  writeFileSync(buildStamp, sources);
}

function main(): void {
  // The .env files the server reads too: a bad variable stops here, before a build.
  loadEnvConfig(root, false);
  getConfig();
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  buildIfNeeded();
  // A direct child, so that a stop signal reaches it and it releases the embedded database.
  const server = spawn(process.execPath, [path.join(".next", "mayday-server.mjs")], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.kill(signal));
  }
  server.on("exit", (code) => process.exit(code ?? 0));
}

try {
  main();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
