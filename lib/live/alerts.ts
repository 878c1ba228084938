import { getConfig } from "../config";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withCallStore } from "../calls/with-call-store";
import { OPEN_STATUSES } from "../calls/workflow";
import { readLiveIncidents } from "./incidents";
import { type AlertIncident, type Alerts, ALERTS_LISTED } from "./schema";

/**
 * GET /api/live/alerts (docs/dashboard.md, "Alerts"): what a dispatcher must not miss, from the
 * incidents themselves, not from the rows a screen happens to show. New: every open critical
 * incident with a call received after its latest acknowledgement (a new critical incident, or a
 * new caller about one), newest first. Reminders: every incident still waiting undispatched
 * (active) longer than its severity's threshold since its first call or its latest
 * acknowledgement, the longest first. Both read open incidents only (the severity and status
 * indexes), each with one probe of its acknowledgements and its calls: the cost grows with open
 * incidents, never with stored calls. An exercise's incidents alert only while it is the one shown.
 */

interface AlertRow {
  id: string;
  alertAt: Date;
  newCalls: number;
}

const latestAcknowledgement = Prisma.sql`LEFT JOIN LATERAL (
    SELECT a.acknowledged_at AS at FROM incident_acknowledgements a WHERE a.incident_id = i.id
    ORDER BY a.acknowledged_at DESC LIMIT 1) ack ON true`;

const exerciseShown = (exercise: string | undefined) =>
  exercise === undefined ? Prisma.sql`i.exercise_id IS NULL` : Prisma.sql`(i.exercise_id IS NULL OR i.exercise_id = ${exercise})`;

export function reminderThresholdsMin(): Alerts["thresholds_min"] {
  const config = getConfig();
  return { critical: config.ALERT_REMIND_CRITICAL_MIN, high: config.ALERT_REMIND_HIGH_MIN, moderate: config.ALERT_REMIND_MODERATE_MIN };
}

/** An alert's incidents: real ones, or training ones (simulated or exercise), or both when unsaid. */
export type AlertKind = "real" | "training";

/**
 * The alerting incidents, every one (not only the listed ones): new (newest first) and reminders
 * (longest first), of `kind` when given.
 */
export async function alertRows(db: Pick<Db, "$queryRaw">, exercise: string | undefined, kind?: AlertKind): Promise<{ fresh: AlertRow[]; reminded: AlertRow[] }> {
  const thresholds = reminderThresholdsMin();
  const ofKind = kind === undefined ? Prisma.empty : Prisma.sql` AND i.simulation = ${kind === "training"}`;
  const threshold = Prisma.sql`make_interval(mins => CASE i.severity WHEN 'critical' THEN ${thresholds.critical}::int
    WHEN 'high' THEN ${thresholds.high}::int ELSE ${thresholds.moderate}::int END)`;
  const [fresh, reminded] = await Promise.all([
    db.$queryRaw<AlertRow[]>(Prisma.sql`
      SELECT i.id, n.newest AS "alertAt", n.calls AS "newCalls"
      FROM incidents i
      ${latestAcknowledgement}
      CROSS JOIN LATERAL (
        SELECT max(c.created_at) AS newest, count(*)::int AS calls FROM calls c
        WHERE c.incident_id = i.id AND c.created_at > COALESCE(ack.at, '-infinity'::timestamptz)) n
      WHERE i.severity = 'critical' AND i.status IN (${Prisma.join([...OPEN_STATUSES])}) AND n.calls > 0
        AND ${exerciseShown(exercise)}${ofKind}
      ORDER BY n.newest DESC, i.id`),
    db.$queryRaw<AlertRow[]>(Prisma.sql`
      SELECT i.id, greatest(i.queued_at, COALESCE(ack.at, '-infinity'::timestamptz)) + ${threshold} AS "alertAt", 0 AS "newCalls"
      FROM incidents i
      ${latestAcknowledgement}
      WHERE i.status = 'active' AND i.queued_at < now() - ${threshold}
        AND COALESCE(ack.at, '-infinity'::timestamptz) < now() - ${threshold}
        AND ${exerciseShown(exercise)}${ofKind}
      ORDER BY "alertAt", i.id`),
  ]);
  return { fresh, reminded };
}

export async function readAlertsFrom(db: Db, exercise: string | undefined): Promise<Alerts> {
  const thresholds = reminderThresholdsMin();
  const { fresh, reminded } = await alertRows(db, exercise);
  const listed = [...fresh.slice(0, ALERTS_LISTED), ...reminded.slice(0, ALERTS_LISTED)];
  const incidents = await readLiveIncidents(db, [...new Set(listed.map((row) => row.id))]);
  const entries = (rows: AlertRow[]): AlertIncident[] =>
    rows.slice(0, ALERTS_LISTED).flatMap((row) => {
      const incident = incidents.get(row.id);
      return incident ? [{ ...incident, alert_at: Math.floor(row.alertAt.getTime() / 1000), new_calls: Number(row.newCalls) }] : [];
    });
  return {
    new: { total: fresh.length, incidents: entries(fresh) },
    reminders: { total: reminded.length, incidents: entries(reminded) },
    thresholds_min: thresholds,
  };
}

/** GET /api/live/alerts. */
export function readAlerts(exercise: string | undefined): Promise<Alerts> {
  return withCallStore((db) => readAlertsFrom(db, exercise));
}
