import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type Config, getConfig } from "../config";
import { PrismaClient } from "./generated/client";
import { embeddedDatabaseDir, openEmbeddedDatabase } from "./pglite";

export type Db = PrismaClient;
export type DatabaseKind = "postgresql" | "pglite";

interface Connection {
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  kind: DatabaseKind;
  /** Where the data lives, without credentials, for logs and /api/health. */
  description: string;
  /** The embedded database itself (PGlite only): its in-process LISTEN (lib/live/notifier.ts). */
  embedded?: PGlite;
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
      adapterFactory: new PrismaPg(pool),
      kind: "postgresql",
      description: redact(config.DATABASE_URL),
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
    close: () => embedded.close(),
  };
}

interface DatabaseHandle {
  prisma: PrismaClient;
  kind: DatabaseKind;
  description: string;
  embedded?: PGlite;
  close(): Promise<void>;
}

let current: Promise<DatabaseHandle> | undefined;

async function connect(config: Config): Promise<DatabaseHandle> {
  const connection = await openMigrationTarget(config);
  const prisma = new PrismaClient({ adapter: connection.adapterFactory });
  return {
    prisma,
    kind: connection.kind,
    description: connection.description,
    embedded: connection.embedded,
    close: async () => {
      await prisma.$disconnect();
      await connection.close();
    },
  };
}

function handle(): Promise<DatabaseHandle> {
  if (!current) {
    current = connect(getConfig());
    // A failed open (server down, directory locked) must not be cached forever.
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}

/** The process-wide Prisma client. */
export async function getDb(): Promise<Db> {
  return (await handle()).prisma;
}

export async function getDatabaseInfo(): Promise<{ kind: DatabaseKind; description: string }> {
  const { kind, description } = await handle();
  return { kind, description };
}

/** The open embedded database, or undefined on PostgreSQL. */
export async function getEmbeddedDatabase(): Promise<PGlite | undefined> {
  return (await handle()).embedded;
}

/** Closes the connection (and releases the embedded database's lock). */
export async function closeDb(): Promise<void> {
  const open = current;
  current = undefined;
  if (open) await (await open).close();
}
