import { getConfig } from "../config";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { EMS_UNIT_TYPES } from "../units/states";
import { type IntervalScope, kindCondition } from "./scope";
import type { UnitInterval, UnitIntervalFigures, UnitIntervals } from "./schema";

/**
 * Intervals per unit (docs/reports.md, "Intervals per unit"), for GET /api/reports/intervals and
 * the exercise debrief:
 * - an assignment counts when it was made in the window, to an incident of the scope's kind;
 * - the unit is dispatched at its assignment (`assigned_at`); its moves are its history rows from
 *   then until the assignment cleared (a merge may move the assignment to another incident: the
 *   moves are the unit's, whatever incident they name);
 * - turnout: to its first move to en_route, when that came before its first move to on_scene;
 *   travel: from there to that first on_scene; response: dispatch to first on_scene;
 * - a unit that reported the incident itself (`unit_initiated`: on scene from its assignment,
 *   lib/units/on-scene.ts) never turned out nor travelled to it: its turnout and response count as
 *   zero and its travel is left out, and each group says how many such assignments it holds;
 * - targets from the config (NFPA 1710 by default): turnout per type (EMS_UNIT_TYPES or fire),
 *   travel for all, response their sum.
 */

export interface UnitTargets {
  turnoutEmsSeconds: number;
  turnoutFireSeconds: number;
  travelSeconds: number;
}

export const configuredUnitTargets = (): UnitTargets => {
  const config = getConfig();
  return {
    turnoutEmsSeconds: config.UNIT_TURNOUT_EMS_SECONDS,
    turnoutFireSeconds: config.UNIT_TURNOUT_FIRE_SECONDS,
    travelSeconds: config.UNIT_TRAVEL_SECONDS,
  };
};

type IntervalName = "turnout" | "travel" | "response";

type GroupRow = {
  unit_id: string | null;
  call_sign: string | null;
  unit_type: string | null;
  /** GROUPING(unit_type, unit_id, call_sign): 0 per unit, 3 per type, 7 overall. */
  level: number;
  assignments: number;
  unit_initiated: number;
} & Record<`${IntervalName}_${"measured" | "within"}`, number> &
  Record<`${IntervalName}_${"p50" | "p90"}`, number | null>;

const statement = (interval: IntervalName, target: Prisma.Sql) => {
  const seconds = Prisma.raw(`${interval}_seconds`);
  return Prisma.sql`count(${seconds})::int AS ${Prisma.raw(`${interval}_measured`)},
    percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}) AS ${Prisma.raw(`${interval}_p50`)},
    percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds}) AS ${Prisma.raw(`${interval}_p90`)},
    count(*) FILTER (WHERE ${seconds} <= ${target})::int AS ${Prisma.raw(`${interval}_within`)}`;
};

/** The scope's unit figures, overall, per unit type and per unit, in one statement. */
export async function unitIntervals(
  db: Pick<Db, "$queryRaw">,
  scope: IntervalScope,
  targets: UnitTargets = configuredUnitTargets(),
): Promise<UnitIntervals> {
  const window: Prisma.Sql[] = [];
  if (scope.from) window.push(Prisma.sql`a.assigned_at >= ${scope.from}`);
  if (scope.to) window.push(Prisma.sql`a.assigned_at <= ${scope.to}`);
  const rows = await db.$queryRaw<GroupRow[]>`
    WITH moves AS (
      SELECT a.unit_id, u.call_sign, u.type AS unit_type, a.assigned_at, m.on_scene_at, a.unit_initiated,
        -- An en_route after the unit arrived is not its way there.
        CASE WHEN m.en_route_at <= COALESCE(m.on_scene_at, 'infinity') THEN m.en_route_at END AS en_route_at,
        CASE WHEN u.type = ANY(${EMS_UNIT_TYPES}::text[]) THEN ${targets.turnoutEmsSeconds}::int ELSE ${targets.turnoutFireSeconds}::int END
          AS turnout_target
      FROM unit_assignments a
      JOIN incidents i ON i.id = a.incident_id
      JOIN units u ON u.id = a.unit_id
      -- The assignment's own moves: one range of the unit's history (unit_id, at).
      CROSS JOIN LATERAL (
        SELECT min(h.at) FILTER (WHERE h.state = 'en_route') AS en_route_at, min(h.at) FILTER (WHERE h.state = 'on_scene') AS on_scene_at
        FROM unit_state_changes h
        WHERE h.unit_id = a.unit_id AND h.at >= a.assigned_at AND h.at <= COALESCE(a.cleared_at, 'infinity')
      ) m
      WHERE ${Prisma.join([kindCondition(scope, "i"), ...window], " AND ")}
    ),
    timed AS (
      SELECT unit_id, call_sign, unit_type, turnout_target, unit_initiated,
        CASE WHEN unit_initiated THEN 0 ELSE EXTRACT(EPOCH FROM en_route_at - assigned_at)::float8 END AS turnout_seconds,
        CASE WHEN NOT unit_initiated THEN EXTRACT(EPOCH FROM on_scene_at - en_route_at)::float8 END AS travel_seconds,
        CASE WHEN unit_initiated THEN 0 ELSE EXTRACT(EPOCH FROM on_scene_at - assigned_at)::float8 END AS response_seconds
      FROM moves
    )
    SELECT unit_id, call_sign, unit_type, GROUPING(unit_type, unit_id, call_sign)::int AS level, count(*)::int AS assignments,
      count(*) FILTER (WHERE unit_initiated)::int AS unit_initiated,
      ${statement("turnout", Prisma.sql`turnout_target`)},
      ${statement("travel", Prisma.sql`${targets.travelSeconds}::int`)},
      ${statement("response", Prisma.sql`turnout_target + ${targets.travelSeconds}::int`)}
    FROM timed
    GROUP BY GROUPING SETS ((unit_type, unit_id, call_sign), (unit_type), ())
    ORDER BY level DESC, unit_type, call_sign, unit_id`;

  const interval = (row: GroupRow | undefined, name: IntervalName): UnitInterval => {
    const measured = row?.[`${name}_measured`] ?? 0;
    const within = row?.[`${name}_within`] ?? 0;
    return {
      measured,
      p50_seconds: row?.[`${name}_p50`] ?? null,
      p90_seconds: row?.[`${name}_p90`] ?? null,
      within_target: within,
      within_target_share: measured > 0 ? within / measured : null,
    };
  };
  const figures = (row: GroupRow | undefined): UnitIntervalFigures => ({
    assignments: row?.assignments ?? 0,
    unit_initiated: row?.unit_initiated ?? 0,
    turnout: interval(row, "turnout"),
    travel: interval(row, "travel"),
    response: interval(row, "response"),
  });
  return {
    targets: {
      turnout_ems_seconds: targets.turnoutEmsSeconds,
      turnout_fire_seconds: targets.turnoutFireSeconds,
      travel_seconds: targets.travelSeconds,
    },
    overall: figures(rows.find((row) => row.level === 7)),
    by_unit_type: rows.filter((row) => row.level === 3).map((row) => ({ unit_type: row.unit_type!, ...figures(row) })),
    by_unit: rows
      .filter((row) => row.level === 0)
      .map((row) => ({ unit_id: row.unit_id!, call_sign: row.call_sign!, unit_type: row.unit_type!, ...figures(row) })),
  };
}
