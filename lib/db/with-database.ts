import { databaseError, DomainError } from "../domain-error";
import { type Db, getDb } from "./client";

/**
 * Runs database work; any failure of the database itself (server down, timeout, bad connection)
 * becomes 500 DATABASE_ERROR with the cause kept for the log, never shown to the caller.
 */
export async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await work(await getDb());
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw databaseError(error);
  }
}
