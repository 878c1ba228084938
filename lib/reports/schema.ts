import { z } from "zod";
import { ISO_DATE_PATTERN } from "../calls/schema";
import { queryParameter } from "../query-parameters";

/** The dispatch intervals report's query and answer (docs/reports.md). */

export const REPORT_CALLS = ["real", "exercise", "both"] as const;
export type ReportCalls = (typeof REPORT_CALLS)[number];

const isoDate = z.string().regex(ISO_DATE_PATTERN);

export const intervalsQueryParameters = {
  from: queryParameter({
    schema: isoDate,
    description: "Inclusive start of the window on the calls' arrival: ISO 8601 date or date-time (no offset means UTC). Default: 24 hours before `to`.",
    label: "Invalid date format",
    message: "from must be in ISO 8601 format",
  }),
  to: queryParameter({
    schema: isoDate,
    description: "Inclusive end of the window: ISO 8601 date (covers that whole UTC day) or date-time. Default: now.",
    label: "Invalid date format",
    message: "to must be in ISO 8601 format",
  }),
  calls: queryParameter({
    schema: z.enum(REPORT_CALLS),
    description:
      "`real`: the voice platform's calls; `exercise`: exercise calls (of `exercise_id`, or of every exercise); `both`. Default: `exercise` when `exercise_id` is given, else `real`.",
    label: "Invalid parameter",
    message: `calls must be one of ${REPORT_CALLS.join(", ")}`,
  }),
  exercise_id: queryParameter({
    schema: z.string().min(1).max(100),
    description: "The exercise whose calls count with `calls=exercise` or `both`; absent: every exercise's.",
    label: "Invalid parameter",
    message: "exercise_id must be 1 to 100 characters",
  }),
};

const seconds = z.number().nullable();

/** One group's figures: its calls, how many were dispatched, and how fast. */
export const intervalFiguresSchema = z.object({
  calls: z.int().meta({ description: "Calls that arrived in the window (calls that never connected or were abandoned before an answer are left out)" }),
  dispatched: z.int().meta({ description: "Of those, calls dispatched (first change to dispatched, enroute or resolved)" }),
  p50_seconds: seconds.meta({ description: "Median seconds from arrival to first dispatch, of the dispatched calls; null when none" }),
  p90_seconds: seconds.meta({ description: "90th percentile (interpolated, as PostgreSQL's percentile_cont)" }),
  max_seconds: seconds,
  within_60s: z.int().meta({ description: "Calls dispatched within 60 seconds of arrival" }),
  within_60s_share: z.number().nullable().meta({ description: "within_60s / calls (NFPA 1225: 90 % within 60 s); null without calls" }),
  located: z.int().meta({ description: "Calls whose location the voice agent reported while the caller was on the line (a live report_emergency with a location)" }),
  location_p50_seconds: seconds.meta({ description: "Median seconds from arrival to the first live report with a location (\"location known\"), of the located calls; null when none" }),
  location_p90_seconds: seconds.meta({ description: "90th percentile of the same" }),
});
export type IntervalFigures = z.infer<typeof intervalFiguresSchema>;

/** One interval of the units' (turnout, travel or response) over a group's assignments. */
export const unitIntervalSchema = z.object({
  measured: z.int().meta({ description: "Assignments whose unit made both moves of the interval (in this order) before it cleared" }),
  p50_seconds: seconds.meta({ description: "Median seconds, of the measured assignments (PostgreSQL's percentile_cont); null when none" }),
  p90_seconds: seconds.meta({ description: "90th percentile (interpolated)" }),
  within_target: z.int().meta({ description: "Measured assignments within the unit's target (`targets`)" }),
  within_target_share: z.number().nullable().meta({ description: "within_target / measured; null when none was measured" }),
});
export type UnitInterval = z.infer<typeof unitIntervalSchema>;

export const unitIntervalFiguresSchema = z.object({
  assignments: z.int().meta({ description: "Units sent (assignments made) in the window" }),
  unit_initiated: z.int().meta({
    description:
      "Of those, units that reported the incident themselves (they came upon it: POST /api/calls `unit_id`), on scene from the start: their turnout and response count as 0 and their travel is not measured, since they never travelled to it",
  }),
  turnout: unitIntervalSchema.meta({ description: "From the unit's dispatch (its assignment) to its first move to en_route" }),
  travel: unitIntervalSchema.meta({ description: "From that move to en_route to its first move to on_scene" }),
  response: unitIntervalSchema.meta({ description: "From the unit's dispatch (its assignment, not the call's arrival) to its first move to on_scene" }),
});
export type UnitIntervalFigures = z.infer<typeof unitIntervalFiguresSchema>;

export const unitIntervalsSchema = z.object({
  targets: z.object({
    turnout_ems_seconds: z.int().meta({ description: "Turnout target of ambulances (UNIT_TURNOUT_EMS_SECONDS; NFPA 1710: 60)" }),
    turnout_fire_seconds: z.int().meta({ description: "Turnout target of every other type (UNIT_TURNOUT_FIRE_SECONDS; NFPA 1710: 80)" }),
    travel_seconds: z.int().meta({ description: "Travel target (UNIT_TRAVEL_SECONDS; NFPA 1710: 240); a unit's response target is its turnout's plus this" }),
  }),
  overall: unitIntervalFiguresSchema,
  by_unit_type: z.array(unitIntervalFiguresSchema.extend({ unit_type: z.string() })),
  by_unit: z.array(unitIntervalFiguresSchema.extend({ unit_id: z.string(), call_sign: z.string(), unit_type: z.string() })),
});
export type UnitIntervals = z.infer<typeof unitIntervalsSchema>;

/** An incident dispatched (or en route) with no unit on it, and why (docs/reports.md, "Dispatched without a unit"). */
export const dispatchWithoutUnitSchema = z.object({
  incident_id: z.string(),
  emergency_type: z.string(),
  location: z.string().meta({ description: "The incident's address: the GIS match, else the caller's words" }),
  status: z.string().meta({ description: "The move: dispatched or enroute" }),
  at: z.string().meta({ description: "ISO 8601 UTC time of the move" }),
  by: z.string().meta({ description: "Who moved it, as named then" }),
  reason: z.string().meta({ description: "The dispatch_reason given" }),
});
export type DispatchWithoutUnit = z.infer<typeof dispatchWithoutUnitSchema>;

export const intervalsReportSchema = z.object({
  from: z.string().meta({ description: "The window's start, ISO 8601 UTC" }),
  to: z.string().meta({ description: "The window's end, ISO 8601 UTC (inclusive)" }),
  calls: z.enum(REPORT_CALLS),
  exercise_id: z.string().nullable(),
  overall: intervalFiguresSchema,
  by_severity: z.array(intervalFiguresSchema.extend({ severity: z.string() })),
  by_type_and_severity: z.array(intervalFiguresSchema.extend({ emergency_type: z.string(), severity: z.string() })),
  units: unitIntervalsSchema.meta({ description: "Turnout, travel and response of the units sent in the window (assignments to incidents of the same calls), overall, per unit type and per unit" }),
  dispatched_without_unit: z.array(dispatchWithoutUnitSchema).meta({
    description: "Moves to dispatched or en route made with no unit on the incident, each with its reason, of the incidents whose first call arrived in the window; the latest first, at most 500",
  }),
});
export type IntervalsReport = z.infer<typeof intervalsReportSchema>;
