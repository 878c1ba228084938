import { type Db, getDb } from "../db/client";
import { databaseError, DomainError } from "../domain-error";

/**
 * Runs call-store work; any failure of the store itself (server down, timeout, bad connection)
 * becomes 500 DATABASE_ERROR with the cause kept for the log, never shown to the caller.
 */
export async function withCallStore<T>(work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await work(await getDb());
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw databaseError(error);
  }
}
