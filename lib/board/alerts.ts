import { getConfig } from "../config";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withDatabase } from "../db/with-database";
import { OPEN_STATUSES } from "../calls/workflow";
import { readLiveIncidents } from "./incident-queue";
import { type AlertIncident, type Alerts, ALERTS_LISTED } from "./schema";

/**
 * GET /api/live/alerts (docs/dashboard.md, "Alerts"): what a dispatcher must not miss, from the
 * incidents themselves, not from the rows a screen happens to show. New: every open critical or
 * high incident with a call received after its latest acknowledgement (a new such incident, or a
 * new caller about one), newest first. Reminders: every incident still waiting undispatched
 * (active) longer than its severity's threshold since its first call or its latest
 * acknowledgement, the longest first. Both read open incidents only (the severity and status
 * indexes), each with one probe of its acknowledgements and its calls: the cost grows with open
 * incidents, never with stored calls. An exercise's incidents alert only while it is the one shown.
 * Real before training: in each list every real incident comes before any training one, and the
 * answer lists the first of each kind, so training alerts never push a real one out.
 */

interface AlertRow {
  id: string;
  training: boolean;
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

/**
 * The severities whose new calls alert with a tone: a critical incident, and a high one (a car
 * against a pedestrian must not wait silently in a surge); a moderate one is highlighted in its
 * row only.
 */
export const NEW_ALERT_SEVERITIES = ["critical", "high"] as const;

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
      SELECT i.id, i.simulation AS training, n.newest AS "alertAt", n.calls AS "newCalls"
      FROM incidents i
      ${latestAcknowledgement}
      CROSS JOIN LATERAL (
        SELECT max(c.created_at) AS newest, count(*)::int AS calls FROM calls c
        WHERE c.incident_id = i.id AND c.created_at > COALESCE(ack.at, '-infinity'::timestamptz)) n
      WHERE i.severity IN (${Prisma.join([...NEW_ALERT_SEVERITIES])}) AND i.status IN (${Prisma.join([...OPEN_STATUSES])}) AND n.calls > 0
        AND ${exerciseShown(exercise)}${ofKind}
      ORDER BY i.simulation, n.newest DESC, i.id`),
    db.$queryRaw<AlertRow[]>(Prisma.sql`
      SELECT i.id, i.simulation AS training, greatest(i.queued_at, COALESCE(ack.at, '-infinity'::timestamptz)) + ${threshold} AS "alertAt", 0 AS "newCalls"
      FROM incidents i
      ${latestAcknowledgement}
      WHERE i.status = 'active' AND i.queued_at < now() - ${threshold}
        AND COALESCE(ack.at, '-infinity'::timestamptz) < now() - ${threshold}
        AND ${exerciseShown(exercise)}${ofKind}
      ORDER BY i.simulation, "alertAt", i.id`),
  ]);
  return { fresh, reminded };
}

/** The rows an answer lists: the first of the real ones, then the first of the training ones (rows come real first). */
function listedRows(rows: AlertRow[]): AlertRow[] {
  return [...rows.filter((row) => !row.training).slice(0, ALERTS_LISTED), ...rows.filter((row) => row.training).slice(0, ALERTS_LISTED)];
}

export async function readAlertsFrom(db: Db, exercise: string | undefined): Promise<Alerts> {
  const thresholds = reminderThresholdsMin();
  const { fresh, reminded } = await alertRows(db, exercise);
  const [listedFresh, listedReminded] = [listedRows(fresh), listedRows(reminded)];
  const incidents = await readLiveIncidents(db, [...new Set([...listedFresh, ...listedReminded].map((row) => row.id))]);
  const list = (rows: AlertRow[], listed: AlertRow[]): Alerts["new"] => ({
    total: rows.length,
    training_total: rows.filter((row) => row.training).length,
    incidents: listed.flatMap((row): AlertIncident[] => {
      const incident = incidents.get(row.id);
      return incident ? [{ ...incident, alert_at: Math.floor(row.alertAt.getTime() / 1000), new_calls: Number(row.newCalls) }] : [];
    }),
  });
  return { new: list(fresh, listedFresh), reminders: list(reminded, listedReminded), thresholds_min: thresholds };
}

/** GET /api/live/alerts. */
export function readAlerts(exercise: string | undefined): Promise<Alerts> {
  return withDatabase((db) => readAlertsFrom(db, exercise));
}
