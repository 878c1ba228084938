import { parseDateBound } from "../calls/filters";
import { csvLine, type CsvValue } from "../calls/csv";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withDatabase } from "../db/with-database";
import { invalidParameter } from "../domain-error";
import { EARLIEST_INSTANT_MS, type QueryValues } from "../query-parameters";
import type { CallStatus } from "../vocabulary";
import { type DispatchWithoutUnit, type IntervalFigures, type IntervalsReport, intervalsQueryParameters } from "./schema";
import { type IntervalScope, kindCondition } from "./scope";
import { unitIntervals } from "./unit-intervals";

/**
 * Dispatch intervals (docs/reports.md): the one rule for how fast calls were dispatched, used by
 * GET /api/reports/intervals and by the exercise debrief (lib/exercises/debrief.ts).
 * - a call counts from its arrival (`occurred_at`, the call's `timestamp`);
 * - it is dispatched at its first change to dispatched, enroute or resolved (the workflow lets a
 *   dispatcher skip ahead);
 * - a call created failed (it never connected, or its caller hung up before an answer: an
 *   exercise's abandoned calls) never waited for a dispatcher and is left out;
 * - percentiles are PostgreSQL's percentile_cont over the dispatched calls' seconds;
 * - "location known": from the arrival to the first live report that said where
 *   (`live_located_at`, lib/calls/write/live.ts), for the calls reported live with a location.
 */
export const DISPATCHED_STATUSES = ["dispatched", "enroute", "resolved"] as const satisfies readonly CallStatus[];
/** NFPA 1225's target: 90 % of calls dispatched within 60 seconds. */
export const DISPATCH_TARGET_SECONDS = 60;

export interface IntervalGroups {
  overall: IntervalFigures;
  by_severity: (IntervalFigures & { severity: string })[];
  by_type_and_severity: (IntervalFigures & { emergency_type: string; severity: string })[];
}

function scopeConditions(scope: IntervalScope): Prisma.Sql[] {
  const conditions = [kindCondition(scope, "c")];
  if (scope.from) conditions.push(Prisma.sql`c.occurred_at >= ${scope.from}`);
  if (scope.to) conditions.push(Prisma.sql`c.occurred_at <= ${scope.to}`);
  return conditions;
}

interface GroupRow {
  emergency_type: string | null;
  severity: string | null;
  /** GROUPING(emergency_type, severity), a bit per column left out (emergency_type 2, severity 1): 0 both, 2 severity only, 3 overall. */
  level: number;
  calls: number;
  dispatched: number;
  p50_seconds: number | null;
  p90_seconds: number | null;
  max_seconds: number | null;
  within_60s: number;
  located: number;
  location_p50_seconds: number | null;
  location_p90_seconds: number | null;
}

/** The figures of the scope's calls, overall, per severity and per type and severity, in one statement. */
export async function dispatchIntervals(db: Pick<Db, "$queryRaw">, scope: IntervalScope): Promise<IntervalGroups> {
  const rows = await db.$queryRaw<GroupRow[]>`
    WITH timed AS (
      SELECT c.emergency_type, c.severity, EXTRACT(EPOCH FROM h.dispatched_at - c.occurred_at)::float8 AS seconds,
        EXTRACT(EPOCH FROM c.live_located_at - c.occurred_at)::float8 AS location_seconds
      FROM calls c
      -- One probe of the call's history (call_id, changed_at) for both facts.
      CROSS JOIN LATERAL (
        SELECT min(h.changed_at) FILTER (WHERE h.status = ANY(${DISPATCHED_STATUSES}::text[])) AS dispatched_at,
          bool_or(h.from_status IS NULL AND h.status = 'failed') AS created_failed
        FROM call_status_changes h WHERE h.call_id = c.id
      ) h
      WHERE ${Prisma.join(scopeConditions(scope), " AND ")} AND h.created_failed IS NOT TRUE
    )
    SELECT emergency_type, severity, GROUPING(emergency_type, severity)::int AS level,
      count(*)::int AS calls, count(seconds)::int AS dispatched,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS p50_seconds,
      percentile_cont(0.9) WITHIN GROUP (ORDER BY seconds) AS p90_seconds,
      max(seconds) AS max_seconds,
      count(*) FILTER (WHERE seconds <= ${DISPATCH_TARGET_SECONDS})::int AS within_60s,
      count(location_seconds)::int AS located,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY location_seconds) AS location_p50_seconds,
      percentile_cont(0.9) WITHIN GROUP (ORDER BY location_seconds) AS location_p90_seconds
    FROM timed
    GROUP BY GROUPING SETS ((emergency_type, severity), (severity), ())
    ORDER BY level DESC, severity, emergency_type`;
  const figures = (row: GroupRow | undefined): IntervalFigures => ({
    calls: row?.calls ?? 0,
    dispatched: row?.dispatched ?? 0,
    p50_seconds: row?.p50_seconds ?? null,
    p90_seconds: row?.p90_seconds ?? null,
    max_seconds: row?.max_seconds ?? null,
    within_60s: row?.within_60s ?? 0,
    within_60s_share: row && row.calls > 0 ? row.within_60s / row.calls : null,
    located: row?.located ?? 0,
    location_p50_seconds: row?.location_p50_seconds ?? null,
    location_p90_seconds: row?.location_p90_seconds ?? null,
  });
  return {
    overall: figures(rows.find((row) => row.level === 3)),
    by_severity: rows.filter((row) => row.level === 2).map((row) => ({ severity: row.severity!, ...figures(row) })),
    by_type_and_severity: rows
      .filter((row) => row.level === 0)
      .map((row) => ({ emergency_type: row.emergency_type!, severity: row.severity!, ...figures(row) })),
  };
}

/** The most dispatches without a unit a report lists. */
const WITHOUT_UNIT_LISTED = 500;

/**
 * The moves to dispatched or en route made with no unit on the incident, with their reason
 * (lib/incidents/move-rule.ts asks for one), of the scope's incidents: the report's figures count
 * such a call as dispatched, and this says which were and why.
 */
export async function dispatchesWithoutUnit(db: Pick<Db, "$queryRaw">, scope: IntervalScope): Promise<DispatchWithoutUnit[]> {
  const conditions = [kindCondition(scope, "i")];
  if (scope.from) conditions.push(Prisma.sql`i.first_call_at >= ${scope.from}`);
  if (scope.to) conditions.push(Prisma.sql`i.first_call_at <= ${scope.to}`);
  const rows = await db.$queryRaw<{ incident_id: string; emergency_type: string; location: string; status: string; at: Date; by: string; reason: string }[]>`
    SELECT s.incident_id, i.emergency_type, COALESCE(i.location_matched, i.location) AS location, s.status, s.changed_at AS at,
      s.changed_by_name AS by, s.dispatch_reason AS reason
    FROM incident_status_changes s JOIN incidents i ON i.id = s.incident_id
    WHERE s.dispatch_reason IS NOT NULL AND ${Prisma.join(conditions, " AND ")}
    ORDER BY s.changed_at DESC LIMIT ${WITHOUT_UNIT_LISTED}`;
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}

const DAY_MS = 86_400_000;

/** GET /api/reports/intervals: the window (default: the last 24 hours) and the calls it covers. */
export async function intervalsReport(values: QueryValues<typeof intervalsQueryParameters>, now = new Date()): Promise<IntervalsReport> {
  const to = values.to === undefined ? now.getTime() : parseDateBound(values.to, "end")?.ms;
  if (to === undefined) throw invalidParameter("Invalid date format", "to must be a real date");
  const from = values.from === undefined ? Math.max(to - DAY_MS, EARLIEST_INSTANT_MS) : parseDateBound(values.from, "start")?.ms;
  if (from === undefined) throw invalidParameter("Invalid date format", "from must be a real date");
  if (from > to) throw invalidParameter("Invalid date range", "from must not be after to");
  const calls = values.calls ?? (values.exercise_id === undefined ? "real" : "exercise");
  const exerciseId = calls === "real" ? undefined : values.exercise_id;
  const scope: IntervalScope = { calls, exerciseId, from: new Date(from), to: new Date(to) };
  const [groups, units, withoutUnit] = await withDatabase((db) =>
    Promise.all([dispatchIntervals(db, scope), unitIntervals(db, scope), dispatchesWithoutUnit(db, scope)]),
  );
  return {
    from: scope.from!.toISOString(),
    to: scope.to!.toISOString(),
    calls,
    exercise_id: exerciseId ?? null,
    ...groups,
    units,
    dispatched_without_unit: withoutUnit,
  };
}

const FIGURE_COLUMNS = [
  "calls", "dispatched", "p50_seconds", "p90_seconds", "max_seconds", "within_60s", "within_60s_share",
  "located", "location_p50_seconds", "location_p90_seconds",
] as const;

/** The report as CSV: one line per group (emergency_type and severity empty where the group spans them). */
export function intervalsCsv(report: IntervalsReport): string {
  const line = (type: string, severity: string, figures: IntervalFigures): CsvValue[] => [
    type,
    severity,
    ...FIGURE_COLUMNS.map((column) => figures[column]),
  ];
  const rows = [
    ["emergency_type", "severity", ...FIGURE_COLUMNS],
    ...report.by_type_and_severity.map((group) => line(group.emergency_type, group.severity, group)),
    ...report.by_severity.map((group) => line("", group.severity, group)),
    line("", "", report.overall),
  ];
  return rows.map(csvLine).join("");
}
