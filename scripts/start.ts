/**
 * `npm start`: check the configuration, apply pending migrations (creating the embedded database
 * on first start), build when the sources changed since the last build, then serve.
 */
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadEnvConfig } from "@next/env";
import { ConfigError, getConfig } from "../lib/config";
import { migrateDatabase } from "../lib/db/client";

const root = process.cwd();
// Run Next's CLI in a direct child (not through npx) so that signals reach the build itself.
const nextCli = createRequire(path.join(root, "package.json")).resolve("next/dist/bin/next");
const sourceRoots = ["app", "components", "lib", "public", "instrumentation.ts", "proxy.ts", "next.config.ts", "tsconfig.json", "package.json", "package-lock.json"];
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

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ").trim();
}

async function migrate(): Promise<void> {
  const config = getConfig();
  try {
    const { applied, description } = await migrateDatabase(config);
    console.log(`Database: ${description} (${applied.length} migration(s) applied now).`);
  } catch (error) {
    const variable = config.DATABASE_URL ? "DATABASE_URL" : "DATA_DIR";
    throw new Error(`${variable}: cannot prepare the database: ${oneLine(error)}`);
  }
}

function buildIfNeeded(): void {
  const sources = hashSources();
  if (existsSync(buildStamp) && readFileSync(buildStamp, "utf8") === sources) return;
  console.log("Building the app (sources changed since the last build)...");
  const result = spawnSync(process.execPath, [nextCli, "build"], { stdio: "inherit", env: process.env });
  if (result.status !== 0) throw new Error("next build failed");
  writeFileSync(buildStamp, sources);
}

async function main(): Promise<void> {
  // The .env files Next reads when it serves (.env.local, ...), read before the configuration is
  // checked and migrated, so both see the same DATABASE_URL as the server (and PORT applies).
  loadEnvConfig(root, false);
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  await migrate();
  buildIfNeeded();
  const port = process.env.PORT ?? "3000";
  // Next behind a server of our own that records the socket peer (see scripts/server.ts); a
  // direct child, so that a stop signal reaches it and it releases the embedded database.
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: port, NODE_ENV: process.env.NODE_ENV ?? "production" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.kill(signal));
  }
  server.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Start-up failed: ${oneLine(error)}`);
  process.exit(1);
});
