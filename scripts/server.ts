/**
 * The production server, compiled by `npm run build` into .next/mayday-server.mjs and started by
 * `npm run start:production` (and by `npm start` after its build); it needs production
 * dependencies only. It reads the .env files, checks the configuration, applies pending migrations
 * (creating the embedded database on first start), then serves.
 *
 * Next's request handler runs behind a plain Node server that records the socket peer in
 * `x-forwarded-for` (see lib/http/client-address.ts). `next start` fills that header only when the
 * client did not send one, so a client could pick its own rate-limit key; here the peer is always
 * appended, exactly as a proxy hop would. The server also answers GET /api/openapi.json itself
 * (lib/http/before-next.ts): through Next each request costs about 5 ms of CPU.
 */
import { createServer } from "node:http";
// @next/env is CommonJS that Node cannot list named exports of: the compiled ES module takes its default.
import nextEnv from "@next/env";
import next from "next";
import { ConfigError, getConfig } from "../lib/config";
import { migrateDatabase } from "../lib/db/client";
import { answerBeforeNext } from "../lib/http/before-next";
import { appendPeer } from "../lib/http/client-address";

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

async function serve(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const app = next({ dev: false, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer((request, response) => {
    if (answerBeforeNext(request, response)) return;
    request.headers["x-forwarded-for"] = appendPeer(request.headers["x-forwarded-for"], request.socket.remoteAddress);
    void handle(request, response);
  });
  server.listen(port, () => console.log(`Mayday listening on http://localhost:${port}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    });
  }
}

async function main(): Promise<void> {
  // Next's types make NODE_ENV read-only; a production server defaults it all the same.
  Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  // The .env files Next reads (.env.production, .env.local, ...), before the configuration is
  // checked and the database migrated, so all three see the same DATABASE_URL (and PORT applies).
  nextEnv.loadEnvConfig(process.cwd(), false);
  await migrate();
  await serve();
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Start-up failed: ${oneLine(error)}`);
  process.exit(1);
});
