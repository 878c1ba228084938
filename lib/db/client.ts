import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type Config, getConfig } from "../config";
import { PrismaClient } from "./generated/client";
import { applyMigrations, type SqlSession } from "./migrations";
import { preparedStatementName } from "./prepared";
import { existingPart, forgetPart, processPart } from "../process-parts";
import { embeddedDatabaseDir, openEmbeddedDatabase } from "./pglite";

export type Db = PrismaClient;
export type DatabaseKind = "postgresql" | "pglite";

interface Connection {
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  kind: DatabaseKind;
  /** Where the data lives, without credentials, for start-up logs (never for HTTP answers). */
  description: string;
  /** The embedded database itself (PGlite only): its in-process LISTEN (lib/db/notifications.ts). */
  embedded?: PGlite;
  /** Plain SQL on one connection of its own (the migrator's). */
  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function redact(url: string): string {
  const parsed = new URL(url);
  return `postgresql://${parsed.host}${parsed.pathname}`;
}

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite database under DATA_DIR. */
export async function openMigrationTarget(config: Config): Promise<Connection> {
  if (config.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      connectionTimeoutMillis: 5_000,
      statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
      max: 10,
    });
    return {
      adapterFactory: new PrismaPg(pool, { statementNameGenerator: preparedStatementName }),
      kind: "postgresql",
      description: redact(config.DATABASE_URL),
      async withSession(work) {
        const client = await pool.connect();
        try {
          return await work({
            query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
            // Without parameters pg sends the simple-query protocol, which takes several statements.
            execute: async (script) => {
              await client.query(script);
            },
          });
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const directory = embeddedDatabaseDir(config.DATA_DIR);
  const embedded = await openEmbeddedDatabase(directory);
  return {
    adapterFactory: new PrismaPGlite(embedded.pglite),
    kind: "pglite",
    description: `embedded PGlite at ${directory}`,
    embedded: embedded.pglite,
    withSession: (work) =>
      work({
        query: async <Row>(sql: string, params?: unknown[]) => (await embedded.pglite.query<Row>(sql, params)).rows,
        execute: async (script) => {
          await embedded.pglite.exec(script);
        },
      }),
    close: () => embedded.close(),
  };
}

/**
 * Opens the configured database (creating the embedded one on first use), applies its pending
 * migrations and closes it again: what every start does before serving.
 */
export async function migrateDatabase(config: Config): Promise<{ applied: string[]; description: string }> {
  const target = await openMigrationTarget(config);
  try {
    return { applied: await target.withSession((session) => applyMigrations(session)), description: target.description };
  } finally {
    await target.close();
  }
}

interface DatabaseHandle {
  prisma: PrismaClient;
  kind: DatabaseKind;
  embedded?: PGlite;
  close(): Promise<void>;
}

const DATABASE_PART = "database";

// One database handle per process, whichever bundle asks (lib/process-parts.ts): a second open of
// the embedded database fails on its directory lock (the health check answered 503 under
// `npm start` on PGlite).
function handle(): Promise<DatabaseHandle> {
  let opening: Promise<DatabaseHandle> | undefined;
  const current = processPart(
    DATABASE_PART,
    () => (opening = connect(getConfig())),
    async (open) => (await open.catch(() => undefined))?.close(),
  );
  // A failed open (server down, directory locked) must not be kept.
  opening?.catch(() => forgetPart(DATABASE_PART, opening));
  return current;
}

async function connect(config: Config): Promise<DatabaseHandle> {
  const connection = await openMigrationTarget(config);
  const prisma = new PrismaClient({ adapter: connection.adapterFactory });
  return {
    prisma,
    kind: connection.kind,
    embedded: connection.embedded,
    close: async () => {
      await prisma.$disconnect();
      await connection.close();
    },
  };
}

/** The process-wide Prisma client. */
export async function getDb(): Promise<Db> {
  return (await handle()).prisma;
}

export async function getDatabaseKind(): Promise<DatabaseKind> {
  return (await handle()).kind;
}

/** The open embedded database, or undefined on PostgreSQL. */
export async function getEmbeddedDatabase(): Promise<PGlite | undefined> {
  return (await handle()).embedded;
}

/** Closes the connection (and releases the embedded database's lock); the next use opens it again. */
export async function closeDb(): Promise<void> {
  const open = existingPart<Promise<DatabaseHandle>>(DATABASE_PART);
  forgetPart(DATABASE_PART, open);
  if (open) await (await open).close();
}
