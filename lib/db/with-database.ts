import { databaseError, DomainError } from "../domain-error";
import { type Db, getDb } from "./client";

/**
 * Runs database work; any failure of the database itself becomes DATABASE_ERROR (server down, bad
 * connection) or DATABASE_BUSY (a time limit under load: lib/domain-error.ts databaseError), the
 * cause kept for the log, never shown to the caller.
 */
export async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await work(await getDb());
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw databaseError(error);
  }
}
