import { csvLine, type CsvValue } from "../calls/csv";
import { EXERCISE_END } from "../calls/write/write-calls";
import { notFound } from "../domain-error";
import { DISPATCHED_STATUSES, dispatchIntervals } from "../reports/intervals";
import { unitIntervals } from "../reports/unit-intervals";
import type { Debrief, ExerciseState } from "./schema";
import { type Clock, exerciseDb, nowOf } from "./exercise-rows";

/**
 * How the trainees did, from the calls' status history (docs/exercises.md):
 * - a call is dispatched at its first change to dispatched, enroute or resolved (skipping allowed);
 *   the dispatch times per severity are the dispatch intervals report's (lib/reports/intervals.ts)
 *   for the exercise's calls;
 * - it waits in the queue from its creation until dispatched or failed, or until `as_of` (the end of
 *   the exercise, or now while it runs);
 * - abandoned calls (failed at creation) never queue and are counted apart.
 */
const OUT_OF_QUEUE = [...DISPATCHED_STATUSES, "failed"];

interface SummaryRow {
  state: ExerciseState;
  started_at: Date | null;
  as_of: Date;
  released: number;
  abandoned: number;
  never_dispatched: number;
  longest_wait_seconds: number | null;
  longest_queue: number;
}

export async function computeDebrief(id: string, clock: Clock = {}): Promise<Debrief> {
  const db = await exerciseDb();
  const now = nowOf(clock);
  // The exercise's calls with their dispatch and queue-exit times, for the three queries below.
  const exerciseCalls = (select: string) => `
    WITH ex AS (SELECT id, state, started_at, COALESCE(ended_at, $2::timestamptz) AS as_of FROM exercises WHERE id = $1),
    timed AS (
      SELECT c.id, c.severity, c.occurred_at, c.created_at AS arrived_at, p.abandoned,
        (SELECT min(h.changed_at) FROM call_status_changes h WHERE h.call_id = c.id AND h.status = ANY($3::text[])) AS dispatched_at,
        (SELECT min(h.changed_at) FROM call_status_changes h WHERE h.call_id = c.id AND h.status = ANY($4::text[])
          AND h.changed_by IS DISTINCT FROM $5) AS left_queue_at
      FROM exercise_calls p JOIN calls c ON c.id = p.call_id
      WHERE p.exercise_id = $1
    )
    ${select}`;
  // The exercise's end closes its open calls (docs/exercises.md): not a departure from the queue, the call waited until as_of.
  const parameters = [id, now, DISPATCHED_STATUSES, OUT_OF_QUEUE, EXERCISE_END];
  const [summary] = await db.$queryRawUnsafe<SummaryRow[]>(
    exerciseCalls(`,
    queue_events AS (
      SELECT arrived_at AS at, 1 AS change FROM timed WHERE NOT abandoned
      UNION ALL SELECT left_queue_at, -1 FROM timed WHERE NOT abandoned AND left_queue_at IS NOT NULL
    ),
    queue AS (
      -- Departures before arrivals at the same instant: a call dispatched as another arrives frees its place first.
      SELECT sum(change) OVER (ORDER BY at, change ROWS UNBOUNDED PRECEDING) AS length FROM queue_events
    )
    SELECT ex.state, ex.started_at, ex.as_of,
      (SELECT count(*)::int FROM timed) AS released,
      (SELECT count(*)::int FROM timed WHERE abandoned) AS abandoned,
      (SELECT count(*)::int FROM timed WHERE NOT abandoned AND dispatched_at IS NULL) AS never_dispatched,
      (SELECT max(EXTRACT(EPOCH FROM COALESCE(left_queue_at, ex.as_of) - occurred_at))::float8 FROM timed WHERE NOT abandoned)
        AS longest_wait_seconds,
      (SELECT COALESCE(max(length), 0)::int FROM queue) AS longest_queue
    FROM ex`),
    ...parameters,
  );
  if (!summary) throw notFound(`No exercise with id ${id}`);

  // The report's rule (lib/reports/intervals.ts), so the debrief and GET /api/reports/intervals agree.
  const { by_severity: bySeverity } = await dispatchIntervals(db, { calls: "exercise", exerciseId: id });
  const dispatchTimes = bySeverity.map(
    ({ severity, dispatched, p50_seconds, p90_seconds, max_seconds, located, location_p50_seconds, location_p90_seconds }) => ({
      severity,
      dispatched,
      p50_seconds,
      p90_seconds,
      max_seconds,
      located,
      location_p50_seconds,
      location_p90_seconds,
    }),
  );

  // The units sent while it ran, to its incidents: the report's figures (docs/reports.md, "Intervals per unit").
  const units = await unitIntervals(db, { calls: "exercise", exerciseId: id, from: summary.started_at ?? summary.as_of, to: summary.as_of });

  const perMinute = await db.$queryRaw<Debrief["calls_per_minute"]>`
    WITH e AS (SELECT duration_minutes FROM exercises WHERE id = ${id})
    SELECT m.minute::int,
      (SELECT count(*)::int FROM exercise_calls p
        WHERE p.exercise_id = ${id} AND LEAST(p.due_offset_ms / 60000, e.duration_minutes - 1) = m.minute) AS planned,
      (SELECT count(*)::int FROM exercise_calls p
        WHERE p.exercise_id = ${id} AND p.released_offset_ms IS NOT NULL
          AND LEAST(p.released_offset_ms / 60000, e.duration_minutes - 1) = m.minute) AS actual
    FROM e CROSS JOIN generate_series(0, e.duration_minutes - 1) AS m(minute)
    ORDER BY m.minute`;

  return {
    exercise_id: id,
    state: summary.state,
    as_of: summary.as_of.toISOString(),
    released: summary.released,
    abandoned: summary.abandoned,
    dispatch_times: dispatchTimes,
    unit_intervals: units,
    never_dispatched: summary.never_dispatched,
    longest_queue: summary.longest_queue,
    longest_wait_seconds: summary.longest_wait_seconds,
    calls_per_minute: perMinute,
  };
}

/** The debrief as CSV in long form: one figure per line (metric, severity, minute, value). */
export function debriefCsv(debrief: Debrief): string {
  const rows: CsvValue[][] = [
    ["released", "", "", debrief.released],
    ["abandoned", "", "", debrief.abandoned],
    ["never_dispatched", "", "", debrief.never_dispatched],
    ["longest_queue", "", "", debrief.longest_queue],
    ["longest_wait_seconds", "", "", debrief.longest_wait_seconds],
  ];
  for (const times of debrief.dispatch_times) {
    rows.push(["dispatched", times.severity, "", times.dispatched]);
    rows.push(["dispatch_p50_seconds", times.severity, "", times.p50_seconds]);
    rows.push(["dispatch_p90_seconds", times.severity, "", times.p90_seconds]);
    rows.push(["dispatch_max_seconds", times.severity, "", times.max_seconds]);
    rows.push(["located_live", times.severity, "", times.located]);
    rows.push(["location_known_p50_seconds", times.severity, "", times.location_p50_seconds]);
    rows.push(["location_known_p90_seconds", times.severity, "", times.location_p90_seconds]);
  }
  for (const { minute, planned, actual } of debrief.calls_per_minute) {
    rows.push(["calls_planned", "", minute, planned]);
    rows.push(["calls_actual", "", minute, actual]);
  }
  return [["metric", "severity", "minute", "value"], ...rows].map(csvLine).join("");
}
