import { z } from "zod";
import { invalidParameter } from "../domain-error";
import { EMERGENCY_TYPES, SEVERITIES } from "../vocabulary";
import { UNIT_TYPES, type UnitType } from "./states";

/**
 * The zod schemas of response plans (docs/units.md, "Response plans"). No database import: the
 * endpoint registry loads this.
 */

/** At most this many of one type in a plan, and this many types: a first alarm, not a whole fleet. */
export const PLAN_MAX_COUNT = 10;
export const PLAN_MAX_SLOTS = UNIT_TYPES.length;

export const planSlotSchema = z.object({
  type: z.enum(UNIT_TYPES),
  count: z.int().meta({ description: `1 to ${PLAN_MAX_COUNT} units of the type` }),
});
export interface PlanSlot {
  type: UnitType;
  count: number;
}

export const responsePlanSchema = z.object({
  emergency_type: z.enum(EMERGENCY_TYPES),
  severity: z.enum(SEVERITIES),
  slots: z.array(planSlotSchema).meta({ description: "Unit types and counts, in the order the recommendation fills them (empty: no unit is sent)" }),
  source: z.enum(["default", "centre"]).meta({ description: "default: the plan Mayday ships (docs/units.md); centre: an administrator's" }),
  reason: z.string().meta({ description: "Why the default plan asks for these units" }),
  updated_at: z.string().nullable().meta({ description: "ISO 8601 time of the administrator's last change (null: the default)" }),
  updated_by_name: z.string().nullable(),
});
export type ResponsePlan = z.infer<typeof responsePlanSchema>;

export const responsePlanListSchema = z.object({
  plans: z.array(responsePlanSchema).meta({ description: "Every emergency type and severity, by type then severity (critical first)" }),
});

export const setResponsePlanSchema = z.object({
  slots: z.array(planSlotSchema).meta({ description: `Each unit type at most once, ${PLAN_MAX_SLOTS} at most; [] when the emergency needs no unit` }),
});

/** The path's emergency type and severity: a value outside the vocabulary is answered 400 naming the values. */
export const planKeySchema = z.object({
  emergency_type: z.enum(EMERGENCY_TYPES, { error: `emergency_type must be one of ${EMERGENCY_TYPES.join(", ")}` }).meta({ description: "The emergency type (docs/interface.md)" }),
  severity: z.enum(SEVERITIES, { error: `severity must be one of ${SEVERITIES.join(", ")}` }),
});

export function parseSetResponsePlan(body: unknown): PlanSlot[] {
  const parsed = setResponsePlanSchema.safeParse(body);
  if (!parsed.success) {
    throw invalidParameter("Invalid slots", `slots is required: a list of { type, count }, type one of ${UNIT_TYPES.join(", ")}, count a whole number`);
  }
  const seen = new Set<UnitType>();
  for (const slot of parsed.data.slots) {
    if (seen.has(slot.type)) throw invalidParameter("Invalid slots", `${slot.type} is named twice: give each unit type once, with its count`);
    seen.add(slot.type);
    if (slot.count < 1 || slot.count > PLAN_MAX_COUNT) throw invalidParameter("Invalid slots", `${slot.type}: count must be 1 to ${PLAN_MAX_COUNT}`);
  }
  return parsed.data.slots;
}
