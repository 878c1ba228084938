import { z } from "zod";
import { invalidParameter } from "../domain-error";
import { queryParameter } from "../query-parameters";
import { type Disposition, DISPOSITIONS } from "../incidents/dispositions";
import { UNIT_STATES, UNIT_TYPES, type UnitState, type UnitType } from "./states";

/**
 * The zod schemas of units (docs/units.md). No database import: the endpoint registry loads this.
 */

export const UNIT_IMPORT_MAX_BYTES = 1024 * 1024;
export const UNIT_IMPORT_MAX_ROWS = 5_000;
export const UNITS_PER_ASSIGNMENT = 50;

const pointSchema = z.object({ latitude: z.number(), longitude: z.number() });

export const unitSchema = z.object({
  id: z.string(),
  call_sign: z.string().meta({ description: "Unique, case-insensitively (E12, Medic 3)" }),
  name: z.string(),
  type: z.enum(UNIT_TYPES),
  station: z
    .object({ name: z.string(), latitude: z.number().nullable(), longitude: z.number().nullable() })
    .nullable()
    .meta({ description: "The home station and its point (where a unit without a position is assumed to be)" }),
  in_service: z.boolean().meta({ description: "false exactly when the state is out_of_service" }),
  state: z.enum(UNIT_STATES),
  state_changed_at: z.string().meta({ description: "ISO 8601 UTC time of the latest state change" }),
  incident_id: z.string().nullable().meta({ description: "The incident the unit serves (its open assignment)" }),
  incident: z
    .object({ emergency_type: z.string(), location: z.string().meta({ description: "Its address: the GIS match, else the caller's words" }) })
    .nullable()
    .meta({ description: "The incident it serves, as a dispatcher names it (null: none)" }),
  position: pointSchema
    .extend({ at: z.string(), stale: z.boolean().meta({ description: "Older than UNIT_POSITION_STALE_SECONDS: not used to recommend the unit" }) })
    .nullable()
    .meta({ description: "The last reported position and when" }),
  exercise_id: z
    .string()
    .nullable()
    .meta({ description: "The exercise whose simulated unit this is (it serves only that exercise's incidents, its crew reporting by itself); null: the centre's roster" }),
  state_change_id: z.string().nullable().meta({ description: "Its latest state move: what POST /api/units/{id}/undo-state names" }),
});
export type Unit = z.infer<typeof unitSchema>;

export const unitListSchema = z.object({ units: z.array(unitSchema).meta({ description: "By call sign" }) });

/** What a roster entry is made of, checked once for the API and each CSV line. */
export interface UnitFields {
  call_sign: string;
  name: string;
  type: UnitType;
  station: { name: string; latitude: number | null; longitude: number | null } | null;
  in_service: boolean;
}

export const createUnitSchema = z.object({
  call_sign: z.string().meta({ description: "1 to 40 characters" }),
  name: z.string().optional().meta({ description: "Defaults to the call sign" }),
  type: z.enum(UNIT_TYPES),
  station: z.string().optional().meta({ description: "The home station's name" }),
  station_latitude: z.number().optional(),
  station_longitude: z.number().optional(),
  in_service: z.boolean().optional().meta({ description: "Defaults to true (state available); false: out_of_service" }),
});

/** One roster entry's fields, or the first thing wrong with them (the CSV import names the line). */
export function unitFields(input: Record<string, unknown>, partial = false): Partial<UnitFields> {
  const text = (key: string, max: number): string | undefined => {
    const value = input[key];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string" || value.trim().length === 0 || value.trim().length > max) {
      throw invalidParameter(`Invalid ${key}`, `${key} must be 1 to ${max} characters`);
    }
    return value.trim();
  };
  const coordinate = (key: string, limit: number): number | null => {
    const value = input[key];
    if (value === undefined || value === null || value === "") return null;
    const number = typeof value === "string" ? Number(value) : value;
    if (typeof number !== "number" || !Number.isFinite(number) || Math.abs(number) > limit) {
      throw invalidParameter(`Invalid ${key}`, `${key} must be a number from -${limit} to ${limit}`);
    }
    return number;
  };
  const fields: Partial<UnitFields> = {};
  const callSign = text("call_sign", 40);
  if (callSign !== undefined) fields.call_sign = callSign;
  else if (!partial) throw invalidParameter("Invalid call_sign", "call_sign is required: 1 to 40 characters");
  const name = text("name", 120);
  if (name !== undefined) fields.name = name;
  else if (!partial && callSign !== undefined) fields.name = callSign;
  if (input.type !== undefined && input.type !== "") {
    if (!(UNIT_TYPES as readonly unknown[]).includes(input.type)) {
      throw invalidParameter("Invalid type", `type must be one of ${UNIT_TYPES.join(", ")}`);
    }
    fields.type = input.type as UnitType;
  } else if (!partial) throw invalidParameter("Invalid type", `type is required: one of ${UNIT_TYPES.join(", ")}`);
  const station = text("station", 120);
  const latitude = coordinate("station_latitude", 90);
  const longitude = coordinate("station_longitude", 180);
  if ((latitude === null) !== (longitude === null)) {
    throw invalidParameter("Invalid station point", "station_latitude and station_longitude go together");
  }
  if (latitude !== null && station === undefined) throw invalidParameter("Invalid station", "a station point needs the station's name");
  if (station !== undefined) fields.station = { name: station, latitude, longitude };
  const inService = input.in_service;
  if (inService !== undefined && inService !== "") {
    const value = typeof inService === "string" ? ({ true: true, false: false, yes: true, no: false } as Record<string, boolean>)[inService.toLowerCase()] : inService;
    if (typeof value !== "boolean") throw invalidParameter("Invalid in_service", "in_service must be true or false");
    fields.in_service = value;
  } else if (!partial) fields.in_service = true;
  return fields;
}

export function parseCreateUnit(body: unknown): UnitFields {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidParameter("Invalid unit", "The body must be a JSON object");
  return unitFields(body as Record<string, unknown>) as UnitFields;
}

export const updateUnitSchema = createUnitSchema.partial();

export function parseUpdateUnit(body: unknown): Partial<UnitFields> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidParameter("Invalid unit", "The body must be a JSON object");
  const fields = unitFields(body as Record<string, unknown>, true);
  if (Object.keys(fields).length === 0) throw invalidParameter("Invalid unit", "Nothing to change: give at least one field");
  return fields;
}

export const unitImportSchema = z.object({
  csv: z.string().meta({
    description:
      "The roster as CSV with a header line: call_sign, type (required), name, station, station_latitude, station_longitude, in_service (optional)",
  }),
});

export function parseUnitImport(body: unknown): { csv: string } {
  const parsed = unitImportSchema.safeParse(body);
  if (!parsed.success) throw invalidParameter("Invalid csv", "csv is required: the roster as CSV text");
  return parsed.data;
}

export const unitImportResultSchema = z.object({
  created: z.number().int().meta({ description: "Units added (every line; on an error none is)" }),
  units: z.array(unitSchema),
});

export const unitStateRequestSchema = z.object({
  state: z.enum(UNIT_STATES),
  latitude: z.number().optional().meta({ description: "Where the unit is, when known (with longitude)" }),
  longitude: z.number().optional(),
  disposition: z.enum(DISPOSITIONS).optional().meta({
    description: "With available or out_of_service: how the incident ended, kept when this was its last unit and it closes (else units_cleared)",
  }),
});
export interface UnitStateRequest {
  state: UnitState;
  position: { latitude: number; longitude: number } | null;
  /** With a clearing state: how its incident ended, if this unit was its last (else units_cleared). */
  disposition?: Disposition | null;
}

export function parseUnitStateRequest(body: unknown): UnitStateRequest {
  const parsed = unitStateRequestSchema.safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0].path[0] === "disposition" ? "disposition" : "state";
    if (field === "disposition") throw invalidParameter("Invalid disposition", `disposition must be one of ${DISPOSITIONS.join(", ")}`);
    throw invalidParameter("Invalid state", `state is required: one of ${UNIT_STATES.join(", ")}`);
  }
  const { state, latitude, longitude } = parsed.data;
  const disposition = parsed.data.disposition ?? null;
  if ((latitude === undefined) !== (longitude === undefined)) throw invalidParameter("Invalid position", "latitude and longitude go together");
  if (latitude !== undefined && longitude !== undefined) {
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) throw invalidParameter("Invalid position", "latitude -90..90, longitude -180..180");
    return { state, position: { latitude, longitude }, disposition };
  }
  return { state, position: null, disposition };
}

export const assignUnitsRequestSchema = z.object({
  unit_ids: z.array(z.string()).meta({ description: `1 to ${UNITS_PER_ASSIGNMENT} units` }),
  confirm: z.boolean().optional().meta({ description: "Send units that are not available (busy elsewhere, out of service) anyway" }),
});
export interface AssignUnitsRequest {
  unitIds: string[];
  confirm: boolean;
}

export function parseAssignUnits(body: unknown): AssignUnitsRequest {
  const parsed = assignUnitsRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidParameter("Invalid units", "unit_ids is required: an array of unit ids");
  const unitIds = [...new Set(parsed.data.unit_ids)];
  if (unitIds.length === 0 || unitIds.length > UNITS_PER_ASSIGNMENT) {
    throw invalidParameter("Invalid units", `unit_ids must name 1 to ${UNITS_PER_ASSIGNMENT} units`);
  }
  return { unitIds, confirm: parsed.data.confirm ?? false };
}

export const assignmentSchema = z.object({
  unit_id: z.string(),
  call_sign: z.string(),
  incident_id: z.string(),
  assigned_at: z.string(),
  confirmed_from_state: z.enum(UNIT_STATES).nullable().meta({ description: "The state a unit sent with confirmation was in" }),
  state_change_id: z.string().meta({ description: "The unit's move to dispatched: what POST /api/units/{id}/undo-state names to undo the send" }),
});

export const assignUnitsAnswerSchema = z.object({
  incident_id: z.string(),
  incident_status: z.string().meta({ description: "The incident's status after the assignment (dispatched once a unit is)" }),
  assignments: z.array(assignmentSchema).meta({ description: "The assignments made (a unit already serving the incident keeps its own)" }),
});
export type AssignUnitsAnswer = z.infer<typeof assignUnitsAnswerSchema>;

/** The body of UNIT_UNAVAILABLE: each unit refused and why. */
export const unavailableUnitSchema = z.object({
  id: z.string(),
  call_sign: z.string(),
  state: z.enum(UNIT_STATES),
  incident_id: z.string().nullable(),
  reason: z.string(),
});

/**
 * The earliest time a fix may carry: no AVL fix predates it, and PostgreSQL holds every time from
 * it on (not an ISO year 0000 or before 4713 BC, which JavaScript's dates reach).
 */
const EARLIEST_FIX = "1970-01-01T00:00:00Z";
const fixTime = z.iso.datetime({ offset: true });

export const unitPositionRequestSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  at: z.string().optional().meta({
    description: `ISO 8601 time of the fix with its offset (Z or +hh:mm), from ${EARLIEST_FIX} and not in the future; now when absent. A fix older than the unit's last is ignored`,
  }),
});
export interface UnitPosition {
  latitude: number;
  longitude: number;
  at: Date | null;
}

export function parseUnitPosition(body: unknown): UnitPosition {
  const parsed = unitPositionRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidParameter("Invalid position", "latitude and longitude are required numbers");
  const { latitude, longitude, at } = parsed.data;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) throw invalidParameter("Invalid position", "latitude -90..90, longitude -180..180");
  if (at === undefined) return { latitude, longitude, at: null };
  const time = fixTime.safeParse(at).success ? new Date(at) : null;
  if (time === null || time.getTime() < Date.parse(EARLIEST_FIX) || time.getTime() > Date.now() + 60_000) {
    throw invalidParameter("Invalid at", `at must be an ISO 8601 time with its offset (2026-01-31T14:02:00Z), from ${EARLIEST_FIX} and not in the future`);
  }
  return { latitude, longitude, at: time };
}

export const planFillSchema = z.object({
  emergency_type: z.string(),
  severity: z.string(),
  source: z.enum(["default", "centre"]).meta({ description: "The default plan, or the centre's (GET /api/response-plans)" }),
  complete: z.boolean().meta({ description: "Every slot has a unit" }),
  slots: z.array(
    z.object({
      type: z.enum(UNIT_TYPES),
      unit_id: z.string().nullable().meta({ description: "The free unit with the shortest travel time for the slot; null: none free" }),
      call_sign: z.string().nullable(),
      travel_minutes: z.number().nullable(),
      unfilled_reason: z.string().nullable().meta({ description: "Why no unit fills the slot, in words (no ladder free: L5 on scene at 224 N 8th St)" }),
    }),
  ).meta({ description: "One slot per unit the plan asks for, in its order (engine 2 is two slots)" }),
});

/** GET /api/incidents/{id}/units: how many units to list (the plan is always filled and given whole). */
export const recommendationQueryParameters = {
  limit: queryParameter({
    schema: z.codec(z.string().regex(/^\d+$/), z.int().min(1).max(1000), { decode: Number, encode: String }).optional(),
    description: "List at most this many units, 1 to 1,000: the plan's first, then the fastest (the console asks for the five it shows). Unset: every unit that may be sent. `plan` is filled from all of them either way.",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 1000",
  }),
};

export const recommendationSchema = z.object({
  incident_id: z.string(),
  incident_located: z.boolean().meta({ description: "false: the incident has no coordinates, units are listed without distances" }),
  plan: planFillSchema.nullable().meta({ description: "The incident's response plan filled (null: its emergency type has none)" }),
  units: z.array(
    z.object({
      unit: unitSchema,
      distance_km: z.number().nullable().meta({ description: "Straight line from where the unit is taken to be" }),
      travel_minutes: z.number().nullable().meta({ description: "On the centre's roads (travel: route), else the straight line at the type's speed (UNIT_SPEEDS_KMH)" }),
      travel: z.enum(["route", "straight_line"]).nullable().meta({ description: "How travel_minutes was found; null without a distance" }),
      road_km: z.number().nullable().meta({ description: "The distance on the roads (travel: route)" }),
      slot: z.int().nullable().meta({ description: "The plan's slot the unit fills (its index in plan.slots); null: beyond the plan" }),
      from: z.enum(["position", "station", "none"]).meta({ description: "Where the unit is taken to be" }),
      reason: z.string().meta({ description: "Why it ranks there, in words" }),
    }),
  ).meta({ description: "Available units: the plan's in slot order, then the rest by travel time; those with no usable point last" }),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

export const undoUnitStateRequestSchema = z.object({
  change_id: z.string().regex(/^\d{1,18}$/).meta({ description: "The move to revert: the unit's state_change_id (or a send's)" }),
});

export function parseUndoUnitStateRequest(body: unknown): z.infer<typeof undoUnitStateRequestSchema> {
  const result = undoUnitStateRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid change_id", "change_id must be the id of the unit's state move");
  return result.data;
}
