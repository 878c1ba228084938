import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { CallFilters } from "../calls/filters";
import { callConditions, equalityConditions, needsRowScan, where } from "../calls/query";
import { withDatabase } from "../db/with-database";
import { OPEN_STATUSES } from "../calls/workflow";
import { SEVERITIES, type Severity } from "../vocabulary";
import { readFeedHead } from "../feed";
import { countOpenIncidents } from "./incident-queue";
import { type Board, hourlyWindowHours, type HourlySeries } from "./schema";
import { andShown, exerciseCondition, type ExerciseVisibility } from "./exercise-visibility";

/**
 * The board summary, all from SQL: counts from call_counts and the hourly series from
 * call_hour_counts (both kept exact by triggers in the writing transaction, a few hundred rows to
 * sum at any table size), the longest waits and the open calls' box from index probes per open
 * status, and the open incidents counted on their status index (lib/board/incident-queue.ts).
 */

const HOUR_SECONDS = 3600;
const openList = Prisma.join(OPEN_STATUSES.map((status) => Prisma.sql`${status}`));

/** Severities outside the vocabulary count, sort and draw as moderate (as the queue ranks them). */
const severityBucket = Prisma.raw(
  `CASE WHEN severity IN ('critical', 'high') THEN severity ELSE 'moderate' END`,
);

interface CountRow { status: string; severity: Severity; emergencyType: string; total: bigint }

async function readCounts(db: Db, visibility: ExerciseVisibility): Promise<CountRow[]> {
  return db.$queryRaw<CountRow[]>`
    SELECT status, ${severityBucket} AS severity, emergency_type AS "emergencyType", sum(total)::bigint AS total
    FROM call_counts
    WHERE total <> 0${andShown(visibility)}
    GROUP BY 1, 2, 3`;
}

/** Per severity, the oldest open call: one backward index probe per (severity, status). */
async function readOldestOpen(db: Db, visibility: ExerciseVisibility): Promise<Record<Severity, number | null>> {
  const rows = await db.$queryRaw<{ severity: Severity; oldest: Date | null }[]>`
    SELECT s.severity, min(o.occurred_at) AS oldest
    FROM (VALUES ('critical'), ('high'), ('moderate')) AS s(severity)
    CROSS JOIN unnest(ARRAY[${openList}]::text[]) AS st(status)
    LEFT JOIN LATERAL (
      SELECT occurred_at FROM calls
      WHERE status = st.status
        AND CASE s.severity WHEN 'moderate' THEN severity NOT IN ('critical', 'high') ELSE severity = s.severity END${andShown(visibility)}
      ORDER BY occurred_at ASC
      LIMIT 1
    ) AS o ON true
    GROUP BY s.severity`;
  const oldest = Object.fromEntries(SEVERITIES.map((level) => [level, null])) as Record<Severity, number | null>;
  for (const row of rows) oldest[row.severity] = row.oldest ? Math.floor(row.oldest.getTime() / 1000) : null;
  return oldest;
}

/** The box around every located open call, for the map's "fit all": four index probes per open status. */
async function readOpenBounds(db: Db, visibility: ExerciseVisibility): Promise<Board["open_bounds"]> {
  const shown = andShown(visibility);
  const [box] = await db.$queryRaw<{ west: number | null; south: number; east: number; north: number }[]>`
    SELECT min(w) AS west, min(s) AS south, max(e) AS east, max(n) AS north
    FROM unnest(ARRAY[${openList}]::text[]) AS st(status),
    LATERAL (SELECT
      (SELECT min(longitude) FROM calls WHERE status = st.status AND longitude IS NOT NULL${shown}) AS w,
      (SELECT max(longitude) FROM calls WHERE status = st.status AND longitude IS NOT NULL${shown}) AS e,
      (SELECT min(latitude) FROM calls WHERE status = st.status AND latitude IS NOT NULL${shown}) AS s,
      (SELECT max(latitude) FROM calls WHERE status = st.status AND latitude IS NOT NULL${shown}) AS n
    ) AS box`;
  return box.west === null ? null : [box.west, box.south, box.east, box.north];
}

/** One row per (UTC hour, severity bucket) of the chart's window. */
function hourlySql(filters: CallFilters, visibility: ExerciseVisibility): Prisma.Sql {
  const window = Prisma.sql`${`${hourlyWindowHours - 1} hours`}::interval`;
  // call_hour_counts has the calls' table_name and simulation columns, so one condition serves both.
  const shown = exerciseCondition(visibility);
  const visible = shown ? [shown] : [];
  if (needsRowScan(filters)) {
    // A location or date filter: count the matching calls of the window themselves.
    const conditions = [...callConditions(filters), ...visible];
    return Prisma.sql`
      WITH newest AS (SELECT date_trunc('hour', max(occurred_at), 'UTC') AS last_hour FROM calls ${where(conditions)})
      SELECT date_trunc('hour', occurred_at, 'UTC') AS hour, ${severityBucket} AS severity, count(*)::bigint AS total
      FROM calls, newest
      ${where([...conditions, Prisma.sql`occurred_at >= newest.last_hour - ${window}`])}
      GROUP BY 1, 2`;
  }
  // Equality filters only: a sum over call_hour_counts (kept exact by triggers) for the window's hours.
  const conditions = [...equalityConditions(filters), ...visible, Prisma.sql`total <> 0`];
  return Prisma.sql`
    WITH newest AS (SELECT max(hour) AS last_hour FROM call_hour_counts ${where(conditions)})
    SELECT hour, ${severityBucket} AS severity, sum(total)::bigint AS total
    FROM call_hour_counts, newest
    ${where([...conditions, Prisma.sql`hour >= newest.last_hour - ${window}`])}
    GROUP BY 1, 2`;
}

/**
 * Calls per UTC hour by severity over the `hourlyWindowHours` hours ending at the newest matching
 * call: the chart's picture, counted by the database.
 */
export async function readHourlySeries(
  db: Db,
  filters: CallFilters = {},
  visibility: ExerciseVisibility = "show",
): Promise<HourlySeries> {
  const rows = await db.$queryRaw<{ hour: Date; severity: Severity; total: bigint }[]>(hourlySql(filters, visibility));
  if (rows.length === 0) return { hours: [], total: 0 };
  const byHour = new Map<number, HourlySeries["hours"][number]>();
  const seconds = rows.map((row) => Math.floor(row.hour.getTime() / 1000));
  const first = Math.min(...seconds);
  const last = Math.max(...seconds);
  for (let hour = first; hour <= last; hour += HOUR_SECONDS) byHour.set(hour, { hour, critical: 0, high: 0, moderate: 0, total: 0 });
  let total = 0;
  rows.forEach((row, index) => {
    const bucket = byHour.get(seconds[index])!;
    bucket[row.severity] += Number(row.total);
    bucket.total += Number(row.total);
    total += Number(row.total);
  });
  return { hours: [...byHour.values()], total };
}

export async function readBoardFrom(db: Db, visibility: ExerciseVisibility = "show"): Promise<Board> {
  // The cursor first: every change up to it is in the figures below, so a client that applies
  // changes after it misses nothing (it may see a few twice, which is harmless).
  const cursor = await readFeedHead(db);
  const [counts, oldest, hourly, openBounds, openIncidents] = await Promise.all([
    readCounts(db, visibility),
    readOldestOpen(db, visibility),
    readHourlySeries(db, {}, visibility),
    readOpenBounds(db, visibility),
    countOpenIncidents(db, visibility),
  ]);
  const bySeverity = Object.fromEntries(SEVERITIES.map((level) => [level, 0])) as Record<Severity, number>;
  const byStatus = { active: 0, dispatched: 0, enroute: 0 };
  const byType = new Map<string, { emergency_type: string; open: number; total: number }>();
  let open = 0;
  let totalCalls = 0;
  for (const row of counts) {
    const total = Number(row.total);
    totalCalls += total;
    const type = byType.get(row.emergencyType) ?? { emergency_type: row.emergencyType, open: 0, total: 0 };
    type.total += total;
    byType.set(row.emergencyType, type);
    if (!(OPEN_STATUSES as readonly string[]).includes(row.status)) continue;
    open += total;
    type.open += total;
    bySeverity[row.severity] += total;
    byStatus[row.status as keyof typeof byStatus] += total;
  }
  return {
    cursor,
    open: { total: open, by_severity: bySeverity, by_status: byStatus },
    by_type: [...byType.values()].sort((a, b) => b.open - a.open || b.total - a.total || a.emergency_type.localeCompare(b.emergency_type)),
    total_calls: totalCalls,
    open_incidents: openIncidents.total,
    open_incidents_by_severity: openIncidents.bySeverity,
    oldest_open: oldest,
    hourly,
    open_bounds: openBounds,
  };
}

/** GET /api/live/board. */
export function readBoard(visibility: ExerciseVisibility): Promise<Board> {
  return withDatabase((db) => readBoardFrom(db, visibility));
}

/** GET /api/live/hourly: the chart's series under the history's filters. */
export function readHourly(filters: CallFilters, visibility: ExerciseVisibility): Promise<HourlySeries> {
  return withDatabase((db) => readHourlySeries(db, filters, visibility));
}
