import { getDb } from "../db/client";
import { Prisma } from "../db/generated/client";
import { databaseError } from "../domain-error";
import type { QueryValues } from "../query-parameters";
import { type AuditEventView, type AuditPage, auditQueryParameters } from "./schema";

export type AuditQuery = QueryValues<typeof auditQueryParameters>;

interface AuditRow {
  id: string;
  at: Date;
  actor_kind: AuditEventView["actor"]["kind"];
  actor_id: string | null;
  actor_name: string;
  action: AuditEventView["action"];
  target_kind: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
  client_address: string | null;
}

/**
 * GET /api/audit: newest first, keyset paged on (at, id) so a page costs the same however long the
 * trail; each filter has an index that leads with it.
 */
export async function listAudit(query: AuditQuery): Promise<AuditPage> {
  const limit = query.limit ?? 100;
  const conditions: Prisma.Sql[] = [];
  if (query.actor) conditions.push(Prisma.sql`actor_id = ${query.actor}`);
  if (query.action) conditions.push(Prisma.sql`action = ${query.action}`);
  if (query.target_kind) conditions.push(Prisma.sql`target_kind = ${query.target_kind}`);
  if (query.target_id) conditions.push(Prisma.sql`target_id = ${query.target_id}`);
  if (query.from) conditions.push(Prisma.sql`at >= ${new Date(query.from)}`);
  if (query.to) conditions.push(Prisma.sql`at < ${new Date(query.to)}`);
  if (query.cursor) {
    conditions.push(Prisma.sql`(at, id) < (SELECT at, id FROM audit_events WHERE id = ${query.cursor})`);
  }
  const where = conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}`;
  let rows: AuditRow[];
  try {
    const db = await getDb();
    rows = await db.$queryRaw<AuditRow[]>`
      SELECT id, at, actor_kind, actor_id, actor_name, action, target_kind, target_id, before, after, client_address
      FROM audit_events ${where}
      ORDER BY at DESC, id DESC
      LIMIT ${limit + 1}`;
  } catch (error) {
    throw databaseError(error);
  }
  const page = rows.slice(0, limit);
  return {
    events: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
      action: row.action,
      target: row.target_kind && row.target_id ? { kind: row.target_kind, id: row.target_id } : null,
      before: row.before ?? null,
      after: row.after ?? null,
      client_address: row.client_address,
    })),
    next_cursor: rows.length > limit ? page[page.length - 1].id : null,
  };
}
