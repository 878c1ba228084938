import { z } from "zod";
import { acknowledgementSchema } from "../acknowledgements/schema";
import { callRecordSchema } from "../calls/schema";
import { invalidParameter } from "../domain-error";
import { duplicateMarkSchema, incidentRecordSchema, incidentTrainingSchema, possibleDuplicatesField } from "../incidents/schema";
import { noteSchema } from "../notes/schema";
import { unitSchema } from "../units/schema";
import { responsePlanSchema } from "../units/plan-schema";
import { integerText, queryParameter, viewportParameters } from "../query-parameters";
import { SEVERITIES } from "../vocabulary";

/**
 * The zod schemas of the live picture's endpoints (change feed, stream, board, queue, map): they
 * validate the queries, type the responses and feed the OpenAPI document.
 */

export const MAX_CHANGE_NUMBER = Number.MAX_SAFE_INTEGER;

export const changesQueryParameters = {
  after: queryParameter({
    schema: integerText(0, MAX_CHANGE_NUMBER).default(0),
    description: "Change number already seen; changes after it are returned. 0: from the first change.",
    label: "Invalid cursor",
    message: "after must be a non-negative integer",
  }),
  limit: queryParameter({
    schema: integerText(1, 1000).default(500),
    description: "Changes per page, 1 to 1000.",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 1000",
  }),
};

export const streamQueryParameters = {
  after: queryParameter({
    schema: integerText(0, MAX_CHANGE_NUMBER),
    description:
      "Change number already seen (a fallback for the Last-Event-ID header, which wins when both are given). " +
      "Neither: the stream starts at the current change number.",
    label: "Invalid cursor",
    message: "after must be a non-negative integer",
  }),
};

/** A reconnecting EventSource sends the id of the last event it received. */
export const lastEventIdSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/)
  .transform(Number);

export const queueQueryParameters = {
  after: queryParameter({
    schema: z.string().regex(/^[0-2]\.\d{1,15}\.[A-Za-z0-9_.:-]{1,200}$/),
    description: "The `next` of the previous page; absent for the first (most urgent) page.",
    label: "Invalid cursor",
    message: "after must be the next value of a previous queue page",
  }),
  limit: queryParameter({
    schema: integerText(1, 500).default(50),
    description: "Calls per page, 1 to 500.",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 500",
  }),
};

export const incidentQueueQueryParameters = {
  after: queryParameter({
    // Its rank: the kind and severity (0-5) by priority, the kind (0-1) by time received.
    schema: z.string().regex(/^[0-5]\.\d{1,15}\.[A-Za-z0-9_.:-]{1,200}$/),
    description: "The `next` of the previous page; absent for the first page.",
    label: "Invalid cursor",
    message: "after must be the next value of a previous queue page",
  }),
  limit: queryParameter({
    schema: integerText(1, 500).default(50),
    description: "Incidents per page, 1 to 500.",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 500",
  }),
  section: queryParameter({
    schema: z.enum(["waiting", "dispatched"]),
    description: "`waiting`: active incidents (no unit dispatched yet); `dispatched`: dispatched or en route. Absent: every open incident.",
    label: "Invalid parameter",
    message: "section must be waiting or dispatched",
  }),
  kind: queryParameter({
    schema: z.enum(["real", "training"]),
    description:
      "`real`: incidents of voice-agent calls; `training`: simulated ones (an exercise's or the simulator's). Absent: both, every real incident before any training one.",
    label: "Invalid parameter",
    message: "kind must be real or training",
  }),
  sort: queryParameter({
    schema: z.enum(["priority", "received"]).default("priority"),
    description: "`priority` (default): severity, then the longest waiting first; `received`: the latest first call first.",
    label: "Invalid parameter",
    message: "sort must be priority or received",
  }),
  scenario: queryParameter({
    schema: z.string().regex(/^[a-z0-9_]{1,64}$/),
    description: "Only incidents with a call of this scenario (simulated and exercise calls carry one).",
    label: "Invalid parameter",
    message: "scenario must be a scenario id",
  }),
  area: queryParameter({
    schema: z.string().trim().min(1).max(100),
    description: "Only incidents with a call of this area (a scenario's area name).",
    label: "Invalid parameter",
    message: "area must be 1 to 100 characters",
  }),
};

export const mapQueryParameters = {
  ...viewportParameters,
  closed_hours: queryParameter({
    schema: integerText(0, 168),
    description: "Also show calls resolved or failed within this many hours (default: LIVE_MAP_CLOSED_HOURS, 6).",
    label: "Invalid parameter",
    message: "closed_hours must be an integer from 0 to 168",
  }),
};

/** Shared by board, queue, map and hourly: `exercises=hide` leaves training exercise calls out. */
export const exerciseVisibilityParameters = {
  exercises: queryParameter({
    schema: z.enum(["show", "hide"]).default("show"),
    description:
      "`hide`: leave out the calls of training exercises (simulated calls under the table name `exercise-calls`), " +
      "from every count, row and group. A voice-agent call is never hidden. Default `show`.",
    label: "Invalid parameter",
    message: "exercises must be show or hide",
  }),
};

export const hourlyWindowHours = 72;

// ---- Responses -------------------------------------------------------------------------------

const changeNumber = z.int().min(0).meta({ description: "Change number (from the calls' change sequence)" });

export const callChangeSchema = z.object({
  change: changeNumber,
  call: callRecordSchema.meta({ description: "The call as it is after this change (its latest state)" }),
});
export type CallChange = z.infer<typeof callChangeSchema>;

export const noteChangeSchema = z.object({
  change: changeNumber,
  note: noteSchema.meta({ description: "An incident's note, kept (or moved by a merge) at this change" }),
});
export type NoteChange = z.infer<typeof noteChangeSchema>;

export const acknowledgementChangeSchema = z.object({
  change: changeNumber,
  acknowledgement: acknowledgementSchema.meta({ description: "An incident's alert acknowledged by a dispatcher at this change" }),
});
export type AcknowledgementChange = z.infer<typeof acknowledgementChangeSchema>;


export const duplicateChangeSchema = z.object({
  change: changeNumber,
  duplicate: duplicateMarkSchema.meta({ description: "Two incidents marked as possible duplicates, or the mark dismissed, at this change" }),
});

export const unitChangeSchema = z.object({
  change: changeNumber,
  unit: unitSchema.meta({ description: "A unit as it is after this change (its latest state: roster, state, position)" }),
});


export const responsePlanChangeSchema = z.object({
  change: changeNumber,
  response_plan: responsePlanSchema.meta({ description: "A response plan as an administrator set it at this change (docs/units.md)" }),
});

/**
 * One entry of the change feed: a call at its latest state, an incident's note, an incident's
 * acknowledgement, a possible duplicate's mark or dismissal, a unit at its latest state, or a
 * response plan as last set.
 */
export const feedChangeSchema = z.union([callChangeSchema, noteChangeSchema, acknowledgementChangeSchema, duplicateChangeSchema, unitChangeSchema, responsePlanChangeSchema]);
export type FeedChange = z.infer<typeof feedChangeSchema>;

export const isCallChange = (change: FeedChange): change is CallChange => "call" in change;

export const changePageSchema = z.object({
  changes: z.array(feedChangeSchema).meta({
    description:
      "Changes after the cursor, in change order: calls (`call`, each once, at its latest change), incident notes (`note`) " +
      "acknowledgements of incidents' alerts (`acknowledgement`), possible duplicates marked or dismissed (`duplicate`), units (`unit`) and response plans (`response_plan`)",
  }),
  cursor: changeNumber.meta({ description: "Pass as `after` for the next page (the last change here, or `after` when empty)" }),
  has_more: z.boolean(),
});
export type ChangePage = z.infer<typeof changePageSchema>;

const perSeverity = z.object(Object.fromEntries(SEVERITIES.map((level) => [level, z.int()])) as Record<(typeof SEVERITIES)[number], z.ZodInt>);

export const hourlyBucketSchema = z.object({
  hour: z.int().meta({ description: "Start of the hour, Unix seconds" }),
  critical: z.int(),
  high: z.int(),
  moderate: z.int(),
  total: z.int(),
});

export const hourlySeriesSchema = z.object({
  hours: z.array(hourlyBucketSchema).meta({
    description: `Calls per hour by severity, up to the ${hourlyWindowHours} hours ending at the newest matching call`,
  }),
  total: z.int().meta({ description: "Calls in those hours" }),
});
export type HourlySeries = z.infer<typeof hourlySeriesSchema>;

export const boardSchema = z.object({
  cursor: changeNumber.meta({ description: "The feed's change number this summary is at least as new as" }),
  open: z.object({
    total: z.int(),
    by_severity: perSeverity.meta({ description: "Severities outside the vocabulary count as moderate" }),
    by_status: z.object({ active: z.int(), dispatched: z.int(), enroute: z.int() }),
  }),
  by_type: z.array(z.object({ emergency_type: z.string(), open: z.int(), total: z.int() })),
  total_calls: z.int(),
  open_incidents: z.int().meta({ description: "Open incidents (active, dispatched or enroute), exact" }),
  open_incidents_by_severity: perSeverity.meta({ description: "Open incidents per severity (the incident's highest), exact: what the queue lists" }),
  oldest_open: z
    .object(
      Object.fromEntries(SEVERITIES.map((level) => [level, z.int().nullable()])) as Record<
        (typeof SEVERITIES)[number],
        z.ZodNullable<z.ZodInt>
      >,
    )
    .meta({ description: "Unix seconds of the longest-waiting open call per severity (null: none open)" }),
  hourly: hourlySeriesSchema,
  open_bounds: z
    .tuple([z.number(), z.number(), z.number(), z.number()])
    .nullable()
    .meta({ description: "[west, south, east, north] around every open call with coordinates (null: none)" }),
});
export type Board = z.infer<typeof boardSchema>;

export const queuePageSchema = z.object({
  calls: z.array(callRecordSchema).meta({
    description: "Open calls, most urgent first: critical, high, then moderate (and unknown) severity; oldest first within each",
  }),
  next: z.string().nullable().meta({ description: "Pass as `after` for the next page; null at the end" }),
});
export type QueuePage = z.infer<typeof queuePageSchema>;

export const liveIncidentSchema = incidentRecordSchema.extend({
  ...possibleDuplicatesField,
  training: incidentTrainingSchema,
  queued_at: z.string().meta({
    description:
      "ISO 8601 UTC time the queue orders and ages it by: its earliest call's time as the platform sent it, or the time " +
      "that call was received when the platform's is implausible (before 2000, more than a day before receipt, or after it)",
  }),
  dispatched_at: z.string().nullable().meta({ description: "ISO 8601 UTC time it was first moved to dispatched or en route (null: never)" }),
  on_line_since: z.int().nullable().meta({
    description: "Unix seconds: when its earliest call still on the line began (a caller talking to the voice agent now); null: none on the line",
  }),
  latest_call: z
    .object({
      conversation_id: z.string(),
      timestamp: z.int().meta({ description: "Unix seconds" }),
      summary: z.string(),
      caller_phone: z.string().nullable(),
      exercise_id: z.string().nullable().meta({ description: "The training exercise that released it, if any" }),
    })
    .meta({ description: "The incident's latest call" }),
});
export type LiveIncident = z.infer<typeof liveIncidentSchema>;

export const incidentQueuePageSchema = z.object({
  incidents: z.array(liveIncidentSchema).meta({
    description:
      "Open incidents in the asked order, every real incident before any training one: by priority, critical, high, then " +
      "moderate, within each the longest waiting (earliest `queued_at`) first; by time received, the latest `queued_at` first",
  }),
  next: z.string().nullable().meta({ description: "Pass as `after` for the next page; null at the end" }),
  total: z.int().meta({ description: "Open incidents of the section under the same filters, on every page" }),
});
export type IncidentQueuePage = z.infer<typeof incidentQueuePageSchema>;

export const mapClusterSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  count: z.int(),
  open: z.int(),
  critical: z.int(),
  high: z.int(),
  moderate: z.int(),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).meta({ description: "[west, south, east, north] of its calls" }),
});

export const mapViewSchema = z.object({
  zoom: z.int(),
  cell_degrees: z.number().meta({ description: "Grid cell size used for the clusters" }),
  clusters: z.array(mapClusterSchema),
  markers: z.array(callRecordSchema).meta({ description: "Calls shown one by one (alone in their cell, or zoomed in)" }),
  shown: z.int().meta({ description: "Calls in the viewport: open ones plus those closed within closed_hours" }),
});
export type MapView = z.infer<typeof mapViewSchema>;

export const incidentMapClusterSchema = mapClusterSchema.extend({
  count: z.int().meta({ description: "Incidents in the cell" }),
  open: z.int().meta({ description: "Open incidents in the cell" }),
  calls: z.int().meta({ description: "Calls of those incidents" }),
});

export const incidentMapViewSchema = z.object({
  zoom: z.int(),
  cell_degrees: z.number().meta({ description: "Grid cell size used for the clusters" }),
  clusters: z.array(incidentMapClusterSchema).meta({ description: "Cells holding more than one incident; severities count incidents" }),
  markers: z.array(liveIncidentSchema).meta({ description: "Incidents shown one by one (alone in their cell, or zoomed in)" }),
  shown: z.int().meta({ description: "Incidents in the viewport: open ones plus those closed within closed_hours" }),
  shown_calls: z.int().meta({ description: "Calls of those incidents" }),
});
export type IncidentMapView = z.infer<typeof incidentMapViewSchema>;

// ---- Alerts (docs/dashboard.md, "Alerts") ----------------------------------------------------

/**
 * Entries of each kind (new, reminders) an answer lists for real incidents, and as many again for
 * training ones; `total` counts them all, the queue reaches every one. The
 * strip shows three at a time; the list is read again every two seconds in a surge by every
 * dashboard, so each entry costs (docs/performance.md, "Dashboard").
 */
export const ALERTS_LISTED = 10;

export const alertIncidentSchema = liveIncidentSchema.extend({
  alert_at: z.int().meta({
    description: "Unix seconds: the newest unacknowledged call's receipt (new), or when the wait passed its threshold (reminder)",
  }),
  new_calls: z.int().meta({ description: "Calls received since the incident was last acknowledged (0 for a reminder)" }),
});
export type AlertIncident = z.infer<typeof alertIncidentSchema>;

const alertListSchema = (what: string) =>
  z.object({
    total: z.int().meta({ description: `Every ${what}, real and training` }),
    training_total: z.int().meta({ description: "How many of `total` are training incidents (simulated: an exercise's or the simulator's)" }),
    incidents: z.array(alertIncidentSchema).meta({
      description: `The first ${ALERTS_LISTED} real ones, then the first ${ALERTS_LISTED} training ones (each incident's \`training\` says which): a real alert always comes first`,
    }),
  });

export const alertsSchema = z.object({
  new: alertListSchema("open critical or high incident with a call received after its latest acknowledgement (newest first)"),
  reminders: alertListSchema(
    "incident waiting undispatched (active) longer than its severity's threshold since its first call or its latest acknowledgement (longest first)",
  ),
  thresholds_min: z
    .object({ critical: z.int(), high: z.int(), moderate: z.int() })
    .meta({ description: "Minutes an incident of each severity may wait undispatched before it is reminded (ALERT_REMIND_<SEVERITY>_MIN)" }),
});
export type Alerts = z.infer<typeof alertsSchema>;

/** POST /api/live/alerts/acknowledge's body: which alerts (docs/dashboard.md, "Alerts"). */
export const acknowledgeAlertsRequestSchema = z.object({
  kind: z.enum(["real", "training"]).meta({ description: "Real incidents' alerts, or training ones' (simulated or exercise calls)" }),
  exercise: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional().meta({ description: "The training exercise shown, as GET /api/live/alerts takes it" }),
});

export function parseAcknowledgeAlertsRequest(body: unknown): z.infer<typeof acknowledgeAlertsRequestSchema> {
  const result = acknowledgeAlertsRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid kind", "kind must be real or training; exercise, when given, an exercise id");
  return result.data;
}

export const acknowledgedAlertsSchema = z.object({
  acknowledged: z.int().meta({ description: "Incidents whose alert was acknowledged" }),
});

export const alertsQueryParameters = {
  exercise: queryParameter({
    schema: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    description: "The training exercise shown: its incidents alert; other exercises' incidents never do.",
    label: "Invalid parameter",
    message: "exercise must be an exercise id",
  }),
};
