/** What Prisma's driver adapter keeps of the database's own error (PostgreSQL or PGlite). */
export interface DriverErrorCause {
  /** The adapter's kind of failure: DatabaseNotReachable, DatabaseDoesNotExist, postgres, ... */
  kind?: unknown;
  /** PostgreSQL's SQLSTATE. */
  originalCode?: unknown;
  /** PostgreSQL's message. */
  originalMessage?: unknown;
  message?: unknown;
}

/** The driver adapter's error behind a Prisma error, if the error is one. */
export function driverErrorCause(error: unknown): DriverErrorCause | undefined {
  return (error as { meta?: { driverAdapterError?: { cause?: DriverErrorCause } } } | null)?.meta?.driverAdapterError?.cause;
}
