import { lockChangeFeed } from "../calls/store";
import { OPEN_STATUSES } from "../calls/workflow";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";

/**
 * Automatic grouping of arriving calls into incidents (docs/incidents.md), set-wise: one lookup
 * statement for a whole batch (the simulator's 1000 calls or the webhook's one). A call joins the
 * nearest open incident of its emergency type whose centroid is within D metres and whose calls
 * span a time within T of it; without coordinates, the open incident of its type whose normalised
 * location text is the same. Only incidents of its own kind (simulated or real) qualify, so a drill
 * never folds into a real emergency, nor a real caller into a drill. Calls of one batch that match no incident are grouped among
 * themselves by the same rule: each joins the incident of the nearest compatible call before it
 * (in time, then batch order), or opens one when there is none.
 */

export type Tx = Pick<Db, "$queryRaw" | "$executeRaw">;

export interface Arrival {
  emergencyType: string;
  severity: string;
  occurredAt: Date;
  latitude: number | null;
  longitude: number | null;
  location: string;
  /** Simulated calls and voice-agent calls never share an incident (docs/incidents.md). */
  simulation: boolean;
}

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

const METRES_PER_DEGREE = 111_320;
/** The lock grid: 0.01 degree of latitude (1.1 km), 0.04 of longitude (>= 1.1 km up to 75 degrees). */
const CELL_LATITUDE = 0.01;
const CELL_LONGITUDE = 0.04;
/** Grouping locks live in the two-int key space, apart from the change feed's one-bigint lock. */
const GROUPING_LOCK_CLASS = 7243015;

function located(arrival: Arrival): arrival is Arrival & { latitude: number; longitude: number } {
  return arrival.latitude !== null && arrival.longitude !== null;
}

/**
 * The grid cells a located call's D-neighbourhood touches (at most 2 x 2, as D <= 1000 m is at
 * most one cell). Two calls within D of each other always share a cell (each one's neighbourhood
 * holds the other's cell), so they wait for each other.
 */
function cellKeys(arrival: Arrival & { latitude: number; longitude: number }): string[] {
  const { radiusMetres } = groupingRule(arrival.emergencyType);
  const dLat = radiusMetres / METRES_PER_DEGREE;
  const dLon = radiusMetres / (METRES_PER_DEGREE * Math.max(0.2, Math.cos((arrival.latitude * Math.PI) / 180)));
  const keys = new Set<string>();
  for (const lat of [arrival.latitude - dLat, arrival.latitude + dLat]) {
    for (const lon of [arrival.longitude - dLon, arrival.longitude + dLon]) {
      keys.add(`${arrival.emergencyType}|${Math.floor(lat / CELL_LATITUDE)}|${Math.floor(lon / CELL_LONGITUDE)}`);
    }
  }
  return [...keys];
}

/**
 * Transaction-level advisory locks, taken before the lookup so that concurrent arrivals about one
 * event cannot both miss each other's new incident: one per (type, grid cell) for located calls,
 * per (type, normalised location text) for the others, in ascending key order (two batches never
 * wait for each other crosswise). Then the change feed's lock, which the insert would take anyway:
 * lock order grouping locks -> feed lock -> rows, as every other writer of calls takes the feed lock
 * first and never a grouping lock. Holding the feed lock from here also means the lookup sees every
 * committed merge, split and status change (dispatcher actions hold it too).
 */
export async function lockForGrouping(tx: Tx, arrivals: readonly Arrival[]): Promise<void> {
  const cells = arrivals.filter(located).flatMap(cellKeys);
  const texts = arrivals.filter((arrival) => !located(arrival));
  await tx.$queryRaw`
    SELECT count(pg_advisory_xact_lock(${GROUPING_LOCK_CLASS}::int, k)) AS locked FROM (
      SELECT DISTINCT k FROM (
        SELECT hashtext(key) AS k FROM unnest(${cells}::text[]) AS key
        UNION
        SELECT hashtext(t || '|text|' || incident_location_key(l))
        FROM unnest(${texts.map((a) => a.emergencyType)}::text[], ${texts.map((a) => a.location)}::text[]) AS u(t, l)
      ) keys ORDER BY k
    ) ordered`;
  await lockChangeFeed(tx);
}

interface Match {
  i: number;
  incident_id: string | null;
  anchor: number | null;
}

/**
 * The incident of each arrival, creating the new ones (set-wise); call under lockForGrouping, in
 * the transaction that then inserts the calls with these ids. `created` lists the new incidents.
 */
export async function assignIncidents(
  tx: Tx,
  arrivals: readonly Arrival[],
): Promise<{ incidentIds: string[]; created: string[] }> {
  const rules = arrivals.map((arrival) => groupingRule(arrival.emergencyType));
  const matches = await tx.$queryRaw<Match[]>`
    WITH a AS (
      SELECT a.*, incident_location_key(a.location) AS key, make_interval(secs => a.window_s) AS win
      FROM unnest(
        ${arrivals.map((_, index) => index)}::int[],
        ${arrivals.map((a) => a.emergencyType)}::text[],
        ${arrivals.map((a) => a.occurredAt)}::timestamptz[],
        ${arrivals.map((a) => a.latitude)}::float8[],
        ${arrivals.map((a) => a.longitude)}::float8[],
        ${arrivals.map((a) => a.location)}::text[],
        ${arrivals.map((a) => a.simulation)}::boolean[],
        ${rules.map((rule) => rule.radiusMetres)}::float8[],
        ${rules.map((rule) => rule.windowMinutes * 60)}::float8[]
      ) AS a(i, type, at, lat, lon, location, simulation, radius, window_s)
    )
    SELECT a.i,
      (SELECT inc.id FROM incidents inc
        WHERE inc.emergency_type = a.type
          AND inc.status = ANY(${OPEN_STATUSES}::text[])
          AND inc.last_call_at >= a.at - a.win AND inc.first_call_at <= a.at + a.win
          AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = inc.id AND c.simulation <> a.simulation)
          AND CASE WHEN a.lat IS NULL OR a.lon IS NULL THEN a.key <> '' AND inc.location_key = a.key
            ELSE inc.latitude BETWEEN a.lat - a.radius / ${METRES_PER_DEGREE} AND a.lat + a.radius / ${METRES_PER_DEGREE}
              AND ${METRES_PER_DEGREE} * sqrt(power(inc.latitude - a.lat, 2)
                + power((inc.longitude - a.lon) * cos(radians(a.lat)), 2)) <= a.radius
          END
        ORDER BY power(coalesce(inc.latitude - a.lat, 0), 2)
          + power(coalesce((inc.longitude - a.lon) * cos(radians(a.lat)), 0), 2), inc.last_call_at DESC
        LIMIT 1) AS incident_id,
      (SELECT b.i FROM a b
        WHERE b.type = a.type AND b.simulation = a.simulation AND (b.at, b.i) < (a.at, a.i) AND b.at >= a.at - a.win
          AND CASE WHEN a.lat IS NULL OR a.lon IS NULL THEN a.key <> '' AND b.key = a.key
            ELSE b.lat IS NOT NULL AND b.lon IS NOT NULL
              AND ${METRES_PER_DEGREE} * sqrt(power(b.lat - a.lat, 2)
                + power((b.lon - a.lon) * cos(radians(a.lat)), 2)) <= a.radius
          END
        ORDER BY power(coalesce(b.lat - a.lat, 0), 2) + power(coalesce((b.lon - a.lon) * cos(radians(a.lat)), 0), 2), b.at, b.i
        LIMIT 1) AS anchor
    FROM a`;

  const byIndex = new Map(matches.map((match) => [match.i, match]));
  const resolved = new Map<number, string>();
  const created: number[] = [];
  // The anchor is a call strictly before it (time, then batch order), so following anchors ends.
  const incidentOf = (index: number): string => {
    const known = resolved.get(index);
    if (known) return known;
    const match = byIndex.get(index)!;
    let incidentId: string;
    if (match.incident_id) incidentId = match.incident_id;
    else if (match.anchor === null) {
      incidentId = uuid7(arrivals[index].occurredAt.getTime());
      created.push(index);
    } else incidentId = incidentOf(match.anchor);
    resolved.set(index, incidentId);
    return incidentId;
  };
  const incidentIds = arrivals.map((_, index) => incidentOf(index));

  if (created.length > 0) {
    const roots = created.map((index) => arrivals[index]);
    // Placeholders (call_count 0): the calls' insert trigger fills in what is derived from calls.
    await tx.$executeRaw`
      INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, latitude, longitude,
                             first_call_at, last_call_at, call_count)
      SELECT id, type, severity, 'active', location, incident_location_key(location), lat, lon, at, at, 0
      FROM unnest(
        ${created.map((index) => incidentIds[index])}::text[],
        ${roots.map((a) => a.emergencyType)}::text[],
        ${roots.map((a) => a.severity)}::text[],
        ${roots.map((a) => a.location)}::text[],
        ${roots.map((a) => a.latitude)}::float8[],
        ${roots.map((a) => a.longitude)}::float8[],
        ${roots.map((a) => a.occurredAt)}::timestamptz[]
      ) AS r(id, type, severity, location, lat, lon, at)`;
  }
  return { incidentIds, created: created.map((index) => incidentIds[index]) };
}

/** New incidents none of whose calls was stored after all (a call_id clash): removed. */
export async function discardEmptyIncidents(tx: Tx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.$executeRaw`
    DELETE FROM incidents i WHERE i.id = ANY(${ids}::text[])
      AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id)`;
}

/** Interactive transactions that wait behind the feed lock: longer than Prisma's 5 s default. */
export const GROUPING_TRANSACTION = { maxWait: 10_000, timeout: 30_000 } as const;
