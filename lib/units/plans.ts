import { type Actor, actorRef } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";
import { type FeedPosition, withFeedLock } from "../feed";
import { Prisma } from "../db/generated/client";
import { EMERGENCY_TYPES, type EmergencyType, SEVERITIES, type Severity } from "../vocabulary";
import { DEFAULT_PLANS } from "./plan-defaults";
import type { PlanSlot, ResponsePlan } from "./plan-schema";
import type { UnitType } from "./states";

/**
 * Response plans (docs/units.md, "Response plans"): the one door of `response_plans`. A pair of
 * emergency type and severity without a row takes its default (lib/units/plan-defaults.ts); an
 * administrator's change is one row, audited, numbered from the change feed under its lock (the
 * feed carries it as `response_plan`), and read by the next recommendation.
 */

type Reader = Pick<Db, "$queryRaw">;

interface PlanRow {
  emergency_type: string;
  severity: string;
  slots: PlanSlot[];
  updated_at: Date;
  updated_by_name: string;
}

function defaultSlots(type: EmergencyType, severity: Severity): PlanSlot[] {
  return Object.entries(DEFAULT_PLANS[type].plans[severity]).map(([unitType, count]) => ({ type: unitType as UnitType, count: count! }));
}

function toPlan(type: EmergencyType, severity: Severity, row: PlanRow | undefined): ResponsePlan {
  return {
    emergency_type: type,
    severity,
    slots: row ? row.slots : defaultSlots(type, severity),
    source: row ? "centre" : "default",
    reason: DEFAULT_PLANS[type].reason,
    updated_at: row ? row.updated_at.toISOString() : null,
    updated_by_name: row ? row.updated_by_name : null,
  };
}

const PLAN_COLUMNS = Prisma.raw("emergency_type, severity, slots, updated_at, updated_by_name");

/** The plan of an incident's type and severity; null for a type outside the vocabulary (no plan to fill). */
export async function planFor(db: Reader, type: string, severity: string): Promise<ResponsePlan | null> {
  if (!(EMERGENCY_TYPES as readonly string[]).includes(type) || !(SEVERITIES as readonly string[]).includes(severity)) return null;
  const [row] = await db.$queryRaw<PlanRow[]>(Prisma.sql`SELECT ${PLAN_COLUMNS} FROM response_plans WHERE emergency_type = ${type} AND severity = ${severity}`);
  return toPlan(type as EmergencyType, severity as Severity, row);
}

/** GET /api/response-plans: every type and severity, the centre's plan or the default. */
export function listResponsePlans(): Promise<{ plans: ResponsePlan[] }> {
  return withDatabase(async (db) => {
    const rows = await db.$queryRaw<PlanRow[]>(Prisma.sql`SELECT ${PLAN_COLUMNS} FROM response_plans`);
    const byKey = new Map(rows.map((row) => [`${row.emergency_type}|${row.severity}`, row]));
    return { plans: EMERGENCY_TYPES.flatMap((type) => SEVERITIES.map((severity) => toPlan(type, severity, byKey.get(`${type}|${severity}`)))) };
  });
}

/** PUT /api/response-plans/{type}/{severity}: the administrator's plan for the pair, audited with what it replaced. */
export async function setResponsePlan(type: EmergencyType, severity: Severity, slots: PlanSlot[], actor: Actor): Promise<ResponsePlan> {
  const row = await withFeedLock(async (tx) => {
    const before = await planFor(tx, type, severity);
    const [written] = await tx.$queryRaw<PlanRow[]>`
      INSERT INTO response_plans (emergency_type, severity, slots, updated_at, updated_by, updated_by_name)
      VALUES (${type}, ${severity}, ${JSON.stringify(slots)}::jsonb, now(), ${actorRef(actor)}, ${actor.name})
      ON CONFLICT (emergency_type, severity) DO UPDATE SET slots = EXCLUDED.slots, updated_at = EXCLUDED.updated_at,
        updated_by = EXCLUDED.updated_by, updated_by_name = EXCLUDED.updated_by_name
      RETURNING emergency_type, severity, slots, updated_at, updated_by_name`;
    await recordAudit(tx, actor, {
      action: "response_plan.changed",
      target: { kind: "response_plan", id: `${type}/${severity}` },
      before: before && { slots: before.slots, source: before.source },
      after: { slots },
    });
    return written;
  });
  return toPlan(type, severity, row);
}

/** Plans changed after change `after`, in change order, at most `limit` (lib/board/feed-pages.ts merges them in). */
export async function readPlanChanges(db: Reader, after: FeedPosition, limit: number): Promise<{ change: FeedPosition; response_plan: ResponsePlan }[]> {
  const rows = await db.$queryRaw<(PlanRow & { change_number: bigint })[]>(Prisma.sql`
    SELECT ${PLAN_COLUMNS}, change_number FROM response_plans WHERE change_number > ${after} ORDER BY change_number LIMIT ${limit}`);
  return rows.map((row) => ({ change: Number(row.change_number), response_plan: toPlan(row.emergency_type as EmergencyType, row.severity as Severity, row) }));
}
