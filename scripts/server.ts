/**
 * The production server, compiled by `npm run build` into .next/mayday-server.mjs and started by
 * `npm run start:production` (and by `npm start` after its build); it needs production
 * dependencies only. It reads the .env files, checks the configuration, applies pending migrations
 * (creating the embedded database on first start), then serves.
 *
 * Next's request handler runs behind a plain Node server that records the socket peer in
 * `x-forwarded-for` (see lib/http/client-address.ts). `next start` fills that header only when the
 * client did not send one, so a client could pick its own rate-limit key; here the peer is always
 * appended, exactly as a proxy hop would. The server also answers GET /api/openapi.json, the
 * webhook and GET /api/calls itself (lib/http/direct-answers.ts): Next's request handling costs more
 * CPU than these endpoints' own work. Before it opens its
 * port it warms what the first requests would otherwise pay for (warmUp below).
 */
import { readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import next from "next";
import { ConfigError, getConfig } from "../lib/config";
import { migrateDatabase } from "../lib/db/client";
import { getPlaceIndex } from "../lib/geocoding/places";
import { productionListener } from "../lib/http/direct-answers";
import { stopProcessParts } from "../lib/process-parts";

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
    throw new Error(`${variable}: cannot prepare the database: ${oneLine(error)}`, { cause: error });
  }
}

/**
 * What the first requests would otherwise pay for, paid before the port opens, through a loopback
 * listener of its own: the direct path's code runs once and the OpenAPI document is built, Next
 * instantiates the health route and loads the proxy (PostgreSQL only; Next loads a route on its
 * first request, next.config.ts), and the database client plans its first queries (about 0.4 s of
 * CPU on these machines, issue 17 in docs/performance.md). A webhook of `{}` is answered 400
 * before the database or the store is touched; the offline geocoder's place index is read. The
 * embedded database is left alone: the first module graph to open it holds its lock. A failure
 * here only means no warm-up.
 */
async function warmUp(listener: RequestListener): Promise<void> {
  const loopback = createServer(listener);
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}`;
  const requests: [string, RequestInit][] = [
    ["/api/openapi.json", {}],
    // PostgreSQL only: the health check's queries warm the database client.
    ...(getConfig().DATABASE_URL ? [["/api/health", {}] as [string, RequestInit]] : []),
    ["/api/voiceagent-webhook", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
  ];
  try {
    for (const [route, init] of requests) await (await fetch(`${base}${route}`, init)).arrayBuffer();
    // The offline geocoder's place index, which the first webhook with an address would read.
    await getPlaceIndex();
  } catch {
    // not warmed: the first real request pays instead
  } finally {
    loopback.close();
    loopback.closeAllConnections();
  }
}

/**
 * The configuration `npm run build` serialised, handed to Next the way its own standalone server
 * does (`output: "standalone"`'s server.js sets this variable): otherwise Next compiles
 * next.config.ts at start with its native SWC binding, about 30 MB of memory and 0.3 s that a
 * server keeps paying for nothing (issue 17, docs/performance.md). Headers and rewrites come from
 * the build's routes manifest either way.
 */
function handNextTheBuiltConfig(): void {
  const manifest = path.join(process.cwd(), ".next", "required-server-files.json");
  const { config } = JSON.parse(readFileSync(manifest, "utf8")) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

async function serve(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  handNextTheBuiltConfig();
  const app = next({ dev: false, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const listener = productionListener((request, response) => void handle(request, response));
  await warmUp(listener);
  const server = createServer(listener);
  server.listen(port, () => console.log(`Mayday listening on http://localhost:${port}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      // Requests end first, then what works in the background, then the database (the embedded
      // one's files are left whole for the next start).
      server.close(() => void stopProcessParts().finally(() => process.exit(0)));
      server.closeAllConnections();
      // A part that cannot finish (a database that stopped answering) does not keep the process.
      setTimeout(() => process.exit(0), 10_000).unref();
    });
  }
}

async function main(): Promise<void> {
  // Next's types make NODE_ENV read-only; a production server defaults it all the same.
  Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  // The .env files Next reads (.env.production, .env.local, ...), before the configuration is
  // checked and the database migrated, so all three see the same DATABASE_URL (and PORT applies).
  // @next/env is CommonJS whose default import differs between the bundle (.next/mayday-server.mjs)
  // and tsx (`node --import tsx scripts/server.ts`, how ../perf starts it): require works in both.
  const { loadEnvConfig } = createRequire(path.join(process.cwd(), "package.json"))("@next/env") as typeof import("@next/env");
  loadEnvConfig(process.cwd(), false);
  // On PostgreSQL, WebAssembly (Prisma's query compiler, undici's HTTP parser) stays on V8's
  // baseline compiler: optimising it cost about 50 MB of memory for good and no measurable
  // throughput (issue 17, docs/performance.md). Not on PGlite, which is the database itself in
  // WebAssembly. Set before any module is compiled (on first use).
  if (getConfig().DATABASE_URL) setFlagsFromString("--liftoff-only");
  await migrate();
  await serve();
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Start-up failed: ${oneLine(error)}`);
  process.exit(1);
});
