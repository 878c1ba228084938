import { getConfig } from "../config";
import { Prisma } from "../db/generated/client";

/**
 * Grouping of stored calls into incidents (docs/incidents.md). A call located street level or
 * better joins the nearest open incident of its emergency type and its kind (simulated or not,
 * same exercise), itself street level or better, whose centroid is within D metres and whose calls
 * span a time within T of it, or a coarser one with the same normalised address; a coarser call
 * (unknown precision, or no coordinates) only the open incident of its type with the same
 * normalised address (incident_location_key): a town's centre never groups two addresses on
 * distance alone, and two precise points are not grouped by their text. The SQL function
 * incident_for_call (prisma/functions/incident_for_call.sql) states that rule once, and placementQuery
 * applies it to a set of calls, for both paths:
 * - the statement that stores received calls (lib/calls/write/received.ts) places the calls it
 *   writes, so a call is written once, in its incident: the intake passes placementQuery to the
 *   door (the door's Placement), which never imports grouping;
 * - the simulator and exercises store calls each in an incident of its own, with
 *   grouping_pending set, and groupPendingCalls (group-waiting.ts) moves a batch of waiting calls, oldest change
 *   first, into their incidents.
 * Calls of one set that match no incident are grouped among themselves by the same rule: each
 * joins the incident of the nearest compatible call before it (in time, then order), or keeps its own.
 */

export interface GroupingRule {
  radiusMetres: number;
  windowMinutes: number;
}

export const DEFAULT_GROUPING: GroupingRule = { radiusMetres: 250, windowMinutes: 60 };

/** D and T for an emergency type: INCIDENT_GROUPING's entry for it, else its "default", else 250 m / 60 min. */
export function groupingRule(emergencyType: string): GroupingRule {
  const rules = getConfig().INCIDENT_GROUPING;
  const rule = { ...rules.default, ...rules[emergencyType] };
  return {
    radiusMetres: rule.radius_m ?? DEFAULT_GROUPING.radiusMetres,
    windowMinutes: rule.window_min ?? DEFAULT_GROUPING.windowMinutes,
  };
}

/** Whether writers mark new calls for grouping (INCIDENT_GROUPING_ENABLED). */
export function groupingEnabled(): boolean {
  return getConfig().INCIDENT_GROUPING_ENABLED;
}

/** Calls grouped per transaction: short enough that writers waiting on the feed lock barely notice. */
export const GROUPING_BATCH = 200;

/** Metres per degree of latitude (prisma/functions/incident_for_call.sql uses the same). */
export const METRES_PER_DEGREE = 111_320;

interface Point {
  lat: number;
  lon: number;
}

/** Metres between two points, as grouping measures them (flat at the first point's latitude). */
export function metresBetween(a: Point, b: Point): number {
  return METRES_PER_DEGREE * Math.hypot(b.lat - a.lat, (b.lon - a.lon) * Math.cos((a.lat * Math.PI) / 180));
}

/**
 * A query of the incident each of `calls` joins: rows (id, incident_id). `calls` is a query of the
 * calls to place, stored or about to be: `id`, `own` (the incident it is in now; its own id when
 * new), `seq` (its order among calls of one time), `type`, `at`, `lat`, `lon`, `precision`,
 * `location`, `simulation`, `exercise_id`. Each joins the incident incident_for_call finds; failing that, the
 * incident of the nearest compatible call before it among `calls` (in time, then `seq`: its
 * anchor); failing that, it keeps `own`. Anchors come strictly before, so the recursion ends.
 * incident_for_call takes the change feed's lock: the lookup sees every committed incident.
 * A WITH RECURSIVE list (`before` opens it, `then` follows its last entry, `placed`), so that a
 * writer can place calls in the statement that writes them.
 */
export function placementQuery(
  calls: Prisma.Sql,
  { before, then = Prisma.sql`SELECT id, incident_id FROM placed` }: { before?: Prisma.Sql; then?: Prisma.Sql } = {},
): Prisma.Sql {
  const configured = Object.keys(getConfig().INCIDENT_GROUPING).filter((type) => type !== "default");
  const rules = configured.map(groupingRule);
  const fallback = groupingRule("default");
  return Prisma.sql`
    WITH RECURSIVE ${before ? Prisma.sql`${before},` : Prisma.empty} a AS (
      SELECT c.*, incident_location_key(c.location) AS key,
        c.lat IS NOT NULL AND c.lon IS NOT NULL AND street_level(c.precision) AS street,
        coalesce(rule.radius, ${fallback.radiusMetres}) AS radius,
        coalesce(rule.window_s, ${fallback.windowMinutes * 60}) AS window_s
      FROM (${calls}) c
      LEFT JOIN unnest(
        ${configured}::text[],
        ${rules.map((rule) => rule.radiusMetres)}::float8[],
        ${rules.map((rule) => rule.windowMinutes * 60)}::float8[]
      ) AS rule(type, radius, window_s) ON rule.type = c.type
    ), matched AS (
      SELECT a.id, a.own,
        incident_for_call(a.own, a.type, a.at, a.lat, a.lon, a.location, a.simulation, a.exercise_id, a.radius,
          a.window_s, a.precision) AS incident_id,
        (SELECT b.id FROM a b
          WHERE b.type = a.type AND b.simulation = a.simulation AND b.exercise_id IS NOT DISTINCT FROM a.exercise_id
            AND (b.at, b.seq) < (a.at, a.seq) AND b.at >= a.at - make_interval(secs => a.window_s)
            AND CASE WHEN a.street AND b.street
              THEN ${METRES_PER_DEGREE} * sqrt(power(b.lat - a.lat, 2)
                + power((b.lon - a.lon) * cos(radians(a.lat)), 2)) <= a.radius
              ELSE a.key <> '' AND b.key = a.key
            END
          ORDER BY power(coalesce(b.lat - a.lat, 0), 2) + power(coalesce((b.lon - a.lon) * cos(radians(a.lat)), 0), 2),
            b.at, b.seq
          LIMIT 1) AS anchor
      FROM a
    ), placed AS (
      SELECT m.id, coalesce(m.incident_id, m.own) AS incident_id FROM matched m
      WHERE m.incident_id IS NOT NULL OR m.anchor IS NULL
      UNION ALL
      SELECT m.id, p.incident_id FROM matched m JOIN placed p ON p.id = m.anchor WHERE m.incident_id IS NULL
    )
    ${then}`;
}
