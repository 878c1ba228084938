import { getConfig } from "../config";
import { Prisma } from "../db/generated/client";
import { EMERGENCY_TYPES, type EmergencyType } from "../vocabulary";
import { markPossibleDuplicates } from "./duplicates";

/**
 * Grouping of stored calls into incidents (docs/incidents.md, "Grouping"), automatic only when
 * sure. A call joins an open incident of its kind (simulated or not, same exercise) with the same
 * callback number within T; or, for an emergency of a place (GROUPING_BY_TYPE), located street
 * level or better, the nearest of its type, itself street level or better, whose centre is within
 * D metres and whose calls span a time within T of it; or one of its type with the same normalised
 * address (incident_location_key) within T (and within D when both are street level). An emergency
 * of a person at another address is never joined: a call that opens an incident of its own close
 * in place and time to another of its type marks the pair as a possible duplicate
 * (incident_duplicates), for a dispatcher to merge or dismiss. The SQL function incident_for_call
 * (prisma/functions/incident_for_call.sql) states that rule once, possible_duplicates the marks, and
 * placementQuery applies both to a set of calls, for both paths:
 * - the statement that stores received calls (lib/calls/write/received.ts) places the calls it
 *   writes, so a call is written once, in its incident: the intake passes placementQuery to the
 *   door (the door's Placement), which never imports grouping;
 * - the simulator and exercises store calls each in an incident of its own, with
 *   grouping_pending set, and groupPendingCalls (group-waiting.ts) moves a batch of waiting calls, oldest change
 *   first, into their incidents.
 * Calls of one set that match no incident are grouped among themselves by the same rule: each
 * joins the incident of the nearest compatible call before it (in time, then order), or keeps its own.
 */

/** What an emergency is about: a place (many callers see one fire) or a person (each caller's patient is one). */
export type GroupingScope = "place" | "person";

export interface GroupingRule {
  scope: GroupingScope;
  radiusMetres: number;
  windowMinutes: number;
}

export const DEFAULT_GROUPING = { radiusMetres: 250, windowMinutes: 60 };

const place = (radiusMetres = DEFAULT_GROUPING.radiusMetres, windowMinutes = DEFAULT_GROUPING.windowMinutes): GroupingRule =>
  ({ scope: "place", radiusMetres, windowMinutes });
const person: GroupingRule = { scope: "person", ...DEFAULT_GROUPING };

/**
 * The rule per emergency type (docs/incidents.md, "The rule per type", with each one's reason).
 * An emergency of a place is grouped by distance at street level: ten houses see one fire. One of a
 * person only by the same address or callback number: two house numbers are two patients, and a
 * call close to another is marked as a possible duplicate instead. D and T: INCIDENT_GROUPING's
 * entry for the type, else its "default", else these.
 */
export const GROUPING_BY_TYPE: Readonly<Record<EmergencyType, GroupingRule>> = {
  structure_fire: place(),
  gas_leak: place(),
  power_lines_down: place(),
  power_outage: place(),
  flooding: place(),
  wind_damage: place(),
  building_damage: place(),
  building_collapse: place(),
  evacuation_needed: place(),
  vehicle_accident: place(),
  hazardous_materials: place(),
  natural_disaster: place(),
  medical_emergency: person,
  medical_injuries: person,
  trapped_person: person,
  debris_injury: person,
  evacuation_assistance: person,
  shelter_needed: person,
  shelter_information: person,
  law_enforcement: person,
};

/** The rule for an emergency type: its scope (a type outside the vocabulary is a person's: never grouped on distance), D and T. */
export function groupingRule(emergencyType: string): GroupingRule {
  const rules = getConfig().INCIDENT_GROUPING;
  const base = (GROUPING_BY_TYPE as Record<string, GroupingRule | undefined>)[emergencyType] ?? person;
  const rule = { ...rules.default, ...rules[emergencyType] };
  return {
    scope: base.scope,
    radiusMetres: rule.radius_m ?? base.radiusMetres,
    windowMinutes: rule.window_min ?? base.windowMinutes,
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

/** Metres between rows `x` and `y` of the placement's calls (aliases), as metresBetween measures them. */
const metresApart = (x: string, y: string) => Prisma.raw(
  `${METRES_PER_DEGREE} * sqrt(power(${y}.lat - ${x}.lat, 2) + power((${y}.lon - ${x}.lon) * cos(radians(${x}.lat)), 2))`,
);

/**
 * A query of the incident each of `calls` joins: rows (id, incident_id). `calls` is a query of the
 * calls to place, stored or about to be: `id`, `own` (the incident it is in now; its own id when
 * new), `seq` (its order among calls of one time), `type`, `at`, `lat`, `lon`, `precision`,
 * `location`, `phone` (the callback number), `simulation`, `exercise_id`. Each joins the incident
 * incident_for_call finds; failing that, the incident of the nearest call before it among `calls`
 * that the same rule would join (in time, then `seq`: its anchor); failing that, it keeps `own`.
 * Anchors come strictly before, so the recursion ends. A call that keeps `own` marks it as a
 * possible duplicate of the incidents possible_duplicates finds for it and of the incident of the
 * nearest close call of its type among `calls` (incident_duplicates, written by the same statement).
 * incident_for_call takes the change feed's lock: the lookup sees every committed incident.
 * A WITH RECURSIVE list (`before` opens it, `then` follows its last entry, `placed`), so that a
 * writer can place calls in the statement that writes them.
 */
export function placementQuery(
  calls: Prisma.Sql,
  { before, then = Prisma.sql`SELECT id, incident_id FROM placed` }: { before?: Prisma.Sql; then?: Prisma.Sql } = {},
): Prisma.Sql {
  const types = [...new Set([...EMERGENCY_TYPES, ...Object.keys(getConfig().INCIDENT_GROUPING).filter((type) => type !== "default")])];
  const rules = types.map(groupingRule);
  const fallback = groupingRule("");
  /** `y` a call of `x`'s type and kind before it, within its window. */
  const close = (x: string, y: string) => Prisma.sql`${Prisma.raw(y)}.type = ${Prisma.raw(x)}.type
    AND ${Prisma.raw(y)}.simulation = ${Prisma.raw(x)}.simulation AND ${Prisma.raw(y)}.exercise_id IS NOT DISTINCT FROM ${Prisma.raw(x)}.exercise_id
    AND (${Prisma.raw(y)}.at, ${Prisma.raw(y)}.seq) < (${Prisma.raw(x)}.at, ${Prisma.raw(x)}.seq)
    AND ${Prisma.raw(y)}.at >= ${Prisma.raw(x)}.at - make_interval(secs => ${Prisma.raw(x)}.window_s)`;
  return Prisma.sql`
    WITH RECURSIVE ${before ? Prisma.sql`${before},` : Prisma.empty} a AS (
      SELECT c.*, incident_location_key(c.location) AS key,
        c.lat IS NOT NULL AND c.lon IS NOT NULL AND street_level(c.precision) AS street,
        coalesce(rule.place, ${fallback.scope === "place"}) AS place,
        coalesce(rule.radius, ${fallback.radiusMetres}) AS radius,
        coalesce(rule.window_s, ${fallback.windowMinutes * 60}) AS window_s
      FROM (${calls}) c
      LEFT JOIN unnest(
        ${types}::text[],
        ${rules.map((rule) => rule.scope === "place")}::boolean[],
        ${rules.map((rule) => rule.radiusMetres)}::float8[],
        ${rules.map((rule) => rule.windowMinutes * 60)}::float8[]
      ) AS rule(type, place, radius, window_s) ON rule.type = c.type
    ), matched AS (
      SELECT a.id, a.own,
        incident_for_call(a.own, a.type, a.at, a.lat, a.lon, a.location, a.simulation, a.exercise_id, a.radius,
          a.window_s, a.precision, a.phone, a.place) AS incident_id,
        (SELECT b.id FROM a b
          WHERE b.simulation = a.simulation AND b.exercise_id IS NOT DISTINCT FROM a.exercise_id
            AND (b.at, b.seq) < (a.at, a.seq) AND b.at >= a.at - make_interval(secs => a.window_s)
            AND ((callback_number(a.phone) AND b.phone = a.phone)
              OR (b.type = a.type AND CASE WHEN a.street AND b.street
                THEN ${metresApart("a", "b")} <= a.radius AND (a.place OR (a.key <> '' AND b.key = a.key))
                ELSE a.key <> '' AND b.key = a.key
              END))
          ORDER BY callback_number(a.phone) AND b.phone = a.phone DESC,
            power(coalesce(b.lat - a.lat, 0), 2) + power(coalesce((b.lon - a.lon) * cos(radians(a.lat)), 0), 2),
            b.at, b.seq
          LIMIT 1) AS anchor
      FROM a
    ), placed AS (
      SELECT m.id, coalesce(m.incident_id, m.own) AS incident_id FROM matched m
      WHERE m.incident_id IS NOT NULL OR m.anchor IS NULL
      UNION ALL
      SELECT m.id, p.incident_id FROM matched m JOIN placed p ON p.id = m.anchor WHERE m.incident_id IS NULL
    ), opened AS (
      SELECT a.*, p.incident_id FROM a JOIN placed p ON p.id = a.id WHERE p.incident_id = a.own AND a.lat IS NOT NULL AND a.lon IS NOT NULL
    ), marks AS (
      SELECT o.incident_id, d.id AS other_id, d.distance_m, d.seconds_apart FROM opened o
      CROSS JOIN LATERAL possible_duplicates(o.own, o.type, o.at, o.lat, o.lon, o.simulation, o.exercise_id, o.radius, o.window_s) d
      UNION ALL
      SELECT o.incident_id, near.incident_id, near.distance_m, near.seconds_apart FROM opened o
      CROSS JOIN LATERAL (
        SELECT p.incident_id, ${metresApart("o", "b")} AS distance_m, round(extract(epoch FROM o.at - b.at))::int AS seconds_apart
        FROM a b JOIN placed p ON p.id = b.id
        WHERE ${close("o", "b")} AND b.lat IS NOT NULL AND b.lon IS NOT NULL AND p.incident_id <> o.incident_id
          AND ${metresApart("o", "b")} <= o.radius
        ORDER BY 2 LIMIT 1) near
    ), ${markPossibleDuplicates}
    ${then}`;
}
