import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * The embedded database: PostgreSQL in WebAssembly, stored under `<dataDir>/pglite`.
 * PGlite has no lock of its own and two processes writing one directory corrupt it, so the first
 * process to open it holds a lock file with its pid until it closes or exits.
 */
export class DataDirInUseError extends Error {
  constructor(lockFile: string, pid: number) {
    super(
      `The embedded database at ${path.dirname(lockFile)} is in use by process ${pid}. ` +
        `Stop that process, or set DATABASE_URL to use a PostgreSQL server.`,
    );
    this.name = "DataDirInUseError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function acquireLock(lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => rmSync(lockFile, { force: true });
      process.once("exit", release);
      return () => {
        process.off("exit", release);
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(lockFile, "utf8"));
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new DataDirInUseError(lockFile, holder);
      }
      // Left behind by a process that died: take it over.
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}

export interface EmbeddedDatabase {
  pglite: PGlite;
  close(): Promise<void>;
}

/** Opens the embedded database at `directory` (created on first use); undefined: in memory. */
export async function openEmbeddedDatabase(directory?: string): Promise<EmbeddedDatabase> {
  let release = () => {};
  if (directory) {
    mkdirSync(directory, { recursive: true });
    release = acquireLock(path.join(directory, "..", `${path.basename(directory)}.lock`));
  }
  try {
    const pglite = await PGlite.create(directory, { extensions: { pg_trgm } });
    return {
      pglite,
      async close() {
        try {
          await pglite.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

export function embeddedDatabaseDir(dataDir: string): string {
  return path.resolve(dataDir, "pglite");
}
