/**
 * Calls with a dispatcher's status history, generated in SQL (generate_series, a hash of the row
 * number for every choice), for the dispatch intervals report's test and bench; and the report's
 * figures computed independently of lib/reports/intervals.ts, to compare with.
 */

const TYPES = ["structure_fire", "medical_emergency", "flooding", "gas_leak", "vehicle_accident", "power_lines_down"];
const sqlArray = (values: string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(",")}]`;

export interface DispatchHistoryOptions {
  /** Prefix of the rows' ids and conversation ids (unique per run). */
  prefix: string;
  /** Rows first..last. */
  first: number;
  last: number;
  /** The newest call's arrival; row n arrives n x 1.7 s (plus a few hundred ms) earlier. */
  newest: Date;
  /** The exercise that one call in ten belongs to (its row must exist). */
  exerciseId: string;
}

/**
 * Two statements: the calls (one in ten an exercise's, one in twenty a plain simulation's, the
 * rest real; one in seventeen created failed), then their history: the creation, and a first move
 * 0-299.999 s after arrival to dispatched, enroute or resolved (skipping ahead), failed, or none;
 * dispatched calls move on to enroute 30 s later.
 */
export function dispatchHistorySql({ prefix, first, last, newest, exerciseId }: DispatchHistoryOptions): string[] {
  const rows = `
    FROM generate_series(${first}, ${last}) AS g
    CROSS JOIN LATERAL (SELECT hashint4(g + 7919)::bigint & 2147483647 AS h) AS r
    CROSS JOIN LATERAL (
      SELECT '${prefix}' || g AS id,
        '${new Date(newest).toISOString()}'::timestamptz - g * interval '1.7 seconds' - (h % 997) * interval '1 millisecond' AS at,
        CASE WHEN h % 10 = 0 THEN 'exercise' WHEN h % 20 = 1 THEN 'simulation' ELSE 'real' END AS kind,
        h % 17 = 0 AS abandoned,
        CASE WHEN (h >> 4) % 10 < 2 THEN NULL WHEN (h >> 4) % 10 = 2 THEN 'failed' WHEN (h >> 4) % 10 = 3 THEN 'enroute'
             WHEN (h >> 4) % 10 = 4 THEN 'resolved' ELSE 'dispatched' END AS move,
        ((h >> 8) % 300000) * interval '1 millisecond' AS after
    ) AS c`;
  return [
    `INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
       transcript_length, emergency_type, location, severity, status, simulation, table_name, exercise_id)
     SELECT c.id, c.id, c.at, 'agent_bench', 'Dispatch interval fixture', true, 60, 0,
       (${sqlArray(TYPES)})[1 + (h >> 12) % ${TYPES.length}], '',
       (ARRAY['critical','high','moderate'])[1 + (h >> 15) % 3],
       CASE WHEN c.abandoned THEN 'failed' ELSE COALESCE(c.move, 'active') END,
       c.kind <> 'real', CASE WHEN c.kind = 'real' THEN 'calls' ELSE 'dispatch-fixture' END,
       CASE WHEN c.kind = 'exercise' THEN '${exerciseId}' END
     ${rows}`,
    `INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
     SELECT c.id, NULL, CASE WHEN c.abandoned THEN 'failed' ELSE 'active' END, c.at, 'fixture' ${rows}
     UNION ALL
     SELECT c.id, 'active', c.move, c.at + c.after, 'fixture' ${rows} WHERE NOT c.abandoned AND c.move IS NOT NULL
     UNION ALL
     SELECT c.id, 'dispatched', 'enroute', c.at + c.after + interval '30 seconds', 'fixture' ${rows}
       WHERE NOT c.abandoned AND c.move = 'dispatched'`,
  ];
}

/** An exercise row for the fixture's exercise calls. */
export const fixtureExerciseSql = (id: string) => `
  INSERT INTO exercises (id, scenario, duration_minutes, planned_calls, shape, speed, abandoned_share, seed, state)
  VALUES ('${id}', 'la_wildfire', 60, 0, 'steady', 1, 0, 1, 'completed')`;

export interface IndependentFigures {
  emergency_type: string;
  severity: string;
  calls: number;
  dispatched: number;
  p50: number | null;
  p90: number | null;
  max: number | null;
  within_60s: number;
}

/**
 * The report's figures per type and severity, written apart from lib/reports/intervals.ts: a
 * call counts unless its first history row is `failed`; its dispatch is the earliest row at
 * dispatched or beyond (a join on a grouped minimum, not a correlated subquery). `scope` is a
 * condition on `c`, with $1/$2 the window's bounds.
 */
export const independentIntervalsSql = (scope: string) => `
  WITH creation AS (
    SELECT DISTINCT ON (call_id) call_id, status FROM call_status_changes ORDER BY call_id, changed_at, id
  ), firsts AS (
    SELECT call_id, min(changed_at) AS at FROM call_status_changes
    WHERE status IN ('dispatched', 'enroute', 'resolved') GROUP BY call_id
  ), counted AS (
    SELECT c.emergency_type, c.severity, EXTRACT(EPOCH FROM f.at - c.occurred_at)::float8 AS s
    FROM calls c JOIN creation k ON k.call_id = c.id LEFT JOIN firsts f ON f.call_id = c.id
    WHERE k.status <> 'failed' AND c.occurred_at BETWEEN $1 AND $2 AND (${scope})
  )
  SELECT emergency_type, severity, count(*)::int AS calls, count(s)::int AS dispatched,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS p50, percentile_cont(0.9) WITHIN GROUP (ORDER BY s) AS p90,
    max(s) AS max, sum(CASE WHEN s <= 60 THEN 1 ELSE 0 END)::int AS within_60s
  FROM counted GROUP BY emergency_type, severity ORDER BY emergency_type, severity`;

/** The report's scopes as the independent computation states them. */
export const INDEPENDENT_SCOPES = {
  real: () => "c.exercise_id IS NULL AND c.table_name = 'calls'",
  exercise: (exerciseId: string) => `c.exercise_id = '${exerciseId}'`,
  both: (exerciseId: string) => `(c.exercise_id IS NULL AND c.table_name = 'calls') OR c.exercise_id = '${exerciseId}'`,
};
