import { type Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { CallFilters } from "./filters";
import { LISTED_COLUMNS, type ListedCall } from "./to-call-record";

/** `%`, `_` and `\` in a location filter match themselves. */
export function likeSubstring(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Conditions on the columns `calls` and `call_counts` share. */
export function equalityConditions(filters: CallFilters): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (filters.emergencyType !== undefined) conditions.push(Prisma.sql`emergency_type = ${filters.emergencyType}`);
  if (filters.severity !== undefined) conditions.push(Prisma.sql`severity = ${filters.severity}`);
  if (filters.status !== undefined) conditions.push(Prisma.sql`status = ${filters.status}`);
  if (filters.simulation !== undefined) conditions.push(Prisma.sql`simulation = ${filters.simulation}`);
  if (filters.tableName !== undefined) conditions.push(Prisma.sql`table_name = ${filters.tableName}`);
  return conditions;
}

/** Filters call_counts (and call_hour_counts) cannot answer: the matching rows are counted through their indexes. */
export function needsRowScan(filters: CallFilters): boolean {
  return (
    filters.location !== undefined ||
    filters.text !== undefined ||
    filters.fromSeconds !== undefined ||
    filters.toSeconds !== undefined ||
    filters.callerPhone !== undefined ||
    filters.platform !== undefined
  );
}

export function callConditions(filters: CallFilters): Prisma.Sql[] {
  const conditions = equalityConditions(filters);
  if (filters.callerPhone !== undefined) conditions.push(Prisma.sql`caller_phone = ${filters.callerPhone}`);
  if (filters.platform !== undefined) conditions.push(Prisma.sql`platform = ${filters.platform}`);
  // `timestamp` is whole seconds: timestamp >= s <=> occurred_at >= s; timestamp <= s <=> occurred_at < s + 1.
  if (filters.fromSeconds !== undefined) {
    conditions.push(Prisma.sql`occurred_at >= ${new Date(filters.fromSeconds * 1000)}`);
  }
  if (filters.toSeconds !== undefined) {
    conditions.push(Prisma.sql`occurred_at < ${new Date((filters.toSeconds + 1) * 1000)}`);
  }
  if (filters.location !== undefined) conditions.push(Prisma.sql`location ILIKE ${likeSubstring(filters.location)}`);
  if (filters.text !== undefined) conditions.push(textCondition(filters.text));
  return conditions;
}

/**
 * q=: the text in the summary, the location or the transcript. A union of ids rather than an OR
 * across the two tables, so that each part is read through its own trigram index
 * (calls_summary_trgm_idx, calls_location_trgm_idx, call_transcripts_text_trgm_idx) and the cost
 * follows the number of matches, not the number of calls.
 */
function textCondition(text: string): Prisma.Sql {
  const pattern = likeSubstring(text);
  return Prisma.sql`id IN (
    SELECT id FROM calls WHERE summary ILIKE ${pattern} OR location ILIKE ${pattern}
    UNION SELECT call_id FROM call_transcripts WHERE text ILIKE ${pattern})`;
}

export function where(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** Every listed column of `calls c`, aliased to its field name (a ListedCall row). */
export const selectList = Prisma.raw(
  Object.entries(LISTED_COLUMNS)
    .map(([field, column]) => `c."${column}" AS "${field}"`)
    .join(", "),
);

/**
 * One page, newest first; ties in time are ordered by id so offset paging never repeats or skips
 * a record. The page's ids are found first (an index-only scan for most filters), then only
 * those rows are read, so a deep offset skips index entries rather than whole rows.
 */
export function pageSql(filters: CallFilters, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    SELECT ${selectList}
    FROM calls c
    JOIN (
      SELECT id FROM calls ${where(callConditions(filters))}
      ORDER BY occurred_at DESC, id
      LIMIT ${limit} OFFSET ${offset}
    ) AS page USING (id)
    ORDER BY c.occurred_at DESC, c.id`;
}

export function findCallsPage(db: Db, filters: CallFilters, limit: number, offset: number): Promise<ListedCall[]> {
  return db.$queryRaw<ListedCall[]>(pageSql(filters, limit, offset));
}

/**
 * Records matching the filters. Equality filters alone are answered from call_counts (kept exact
 * by triggers), a sum over at most a few hundred rows at any table size; a location or date filter
 * counts the matching rows through their indexes.
 */
export function countSql(filters: CallFilters): Prisma.Sql {
  return needsRowScan(filters)
    ? Prisma.sql`SELECT count(*) AS total FROM calls ${where(callConditions(filters))}`
    : Prisma.sql`SELECT COALESCE(sum(total), 0)::bigint AS total FROM call_counts ${where(equalityConditions(filters))}`;
}

export async function countCalls(db: Db, filters: CallFilters): Promise<number> {
  const [{ total }] = await db.$queryRaw<{ total: bigint }[]>(countSql(filters));
  return Number(total);
}

/** Where a keyset walk in listing order stopped: the last row read. */
export interface ListingPosition {
  occurredAt: Date;
  id: string;
}

/**
 * The next `limit` matching rows in listing order (newest first, then id) after `after`: a keyset
 * walk along the (occurred_at DESC, id) indexes, so each batch costs the same however deep it is.
 */
export function batchAfterSql(filters: CallFilters, after: ListingPosition | undefined, limit: number): Prisma.Sql {
  const conditions = callConditions(filters);
  if (after) {
    conditions.push(
      Prisma.sql`occurred_at <= ${after.occurredAt} AND (occurred_at < ${after.occurredAt} OR id > ${after.id})`,
    );
  }
  return Prisma.sql`SELECT ${selectList} FROM calls c ${where(conditions)} ORDER BY occurred_at DESC, id LIMIT ${limit}`;
}

export function findCallsAfter(db: Db, filters: CallFilters, after: ListingPosition | undefined, limit: number): Promise<ListedCall[]> {
  return db.$queryRaw<ListedCall[]>(batchAfterSql(filters, after, limit));
}
