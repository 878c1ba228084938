import { createHash } from "node:crypto";
import { Prisma } from "./generated/client";

/**
 * Statements a connection keeps prepared (PostgreSQL through node-postgres; PGlite ignores it).
 * PostgreSQL parses and plans an unnamed statement anew each time: for the intake's upsert of a
 * batch of calls, 1.2 of its 6 ms under load, paid while it holds the change feed's lock
 * (docs/performance.md, issue 25). Only statements marked with `prepared` are kept, so a
 * connection holds a handful, never one per distinct text Prisma generates; the name is the
 * text's hash, so a changed text (another configuration) is prepared under a name of its own.
 */
const MARK = "/* prepared */";

/** The statement, marked to stay prepared on each connection that runs it. */
export function prepared(statement: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(MARK)} ${statement}`;
}

/** The adapter's statement name: the marked statement's hash; "" (node-postgres: unnamed) for any other. */
export function preparedStatementName({ sql }: { sql: string }): string {
  if (!sql.startsWith(MARK)) return "";
  return `mayday_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`;
}
