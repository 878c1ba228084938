import { z } from "zod";
import {
  callFilterParameters, callRecordSchema, type IncidentUpdate, incidentUpdateSchema, pagingParameters, parseIncidentUpdate, precisionSchema, severitySchema, statusSchema,
} from "../calls/schema";
import { invalidParameter } from "../domain-error";
import { DISPATCH_REASON_MAX, type Disposition, DISPOSITIONS, UNITS_CLEARED } from "./dispositions";
import { queryParameter } from "../query-parameters";
import { SEVERITIES, STATUSES } from "../vocabulary";

/**
 * The zod schemas of the incidents API (docs/incidents.md): requests are validated by them and the
 * OpenAPI document is generated from them. No database import: the endpoint registry loads this.
 */

export const incidentFilterParameters = {
  status: queryParameter({
    schema: statusSchema,
    description: "Exact incident status.",
    label: "Invalid parameter",
    message: `status must be one of ${STATUSES.join(", ")}`,
  }),
  emergency_type: callFilterParameters.emergency_type,
  severity: queryParameter({
    schema: severitySchema,
    description: "Exact severity (the highest of the incident's calls).",
    label: "Invalid parameter",
    message: `severity must be one of ${SEVERITIES.join(", ")}`,
  }),
};

/** GET /api/incidents's query: paging as GET /api/calls, then the filters. */
export const incidentListQueryParameters = { ...pagingParameters, ...incidentFilterParameters };

export const incidentRecordSchema = z.object({
  id: z.string(),
  emergency_type: z.string(),
  severity: z.string().meta({ description: "The highest severity of its calls" }),
  status: statusSchema,
  location: z.string().meta({ description: "The first call's location text: the caller's words" }),
  location_matched: z.string().nullable().meta({
    description: "The address the centre's GIS matched the first call's words to, in its standard form: shown, the words beside it; null when another source placed it",
  }),
  latitude: z.number().nullable().meta({
    description: "Its point: the centre of its most precise calls with coordinates (a coarser call never moves it); null when none has",
  }),
  longitude: z.number().nullable(),
  location_precision: precisionSchema.nullable().meta({
    description: "Its point's precision: the best of its located calls' (docs/geocoding.md); null when none is known",
  }),
  location_uncertainty_m: z.number().nullable().meta({
    description: "Its point's radius in metres: the largest uncertainty among the calls it is the centre of; null when unknown",
  }),
  first_call_at: z.string().meta({ description: "ISO 8601 UTC time of its earliest call" }),
  last_call_at: z.string().meta({ description: "ISO 8601 UTC time of its latest call" }),
  call_count: z.int().meta({ description: "Number of its calls" }),
});

export type IncidentRecord = z.infer<typeof incidentRecordSchema>;

/** Another open incident close in place and time that grouping did not join (docs/incidents.md, "Possible duplicates"). */
export const possibleDuplicateSchema = z.object({
  incident_id: z.string().meta({ description: "The other incident" }),
  emergency_type: z.string(),
  location: z.string().meta({ description: "The other incident's location text" }),
  distance_m: z.int().meta({ description: "Metres between the call that opened one and the other's centre when they were marked" }),
  seconds_apart: z.int().meta({ description: "Seconds between that call and the other's calls (0: within their span)" }),
  found_at: z.int().meta({ description: "Unix seconds: when they were marked" }),
});
export type PossibleDuplicate = z.infer<typeof possibleDuplicateSchema>;

/** The field an incident's answers add: its possible duplicates, open and not dismissed, nearest first. */
export const possibleDuplicatesField = {
  possible_duplicates: z.array(possibleDuplicateSchema).meta({
    description: "Open incidents it may duplicate, nearest first: merge one into it, or dismiss the mark (POST /api/incidents/{id}/dismiss-duplicate)",
  }),
};

/** A mark or its dismissal as the change feed carries it (the pair, the smaller id first). */
export const duplicateMarkSchema = z.object({
  incident_id: z.string(),
  other_id: z.string(),
  dismissed: z.boolean().meta({ description: "A dispatcher dismissed the mark: two emergencies" }),
});
export type DuplicateMark = z.infer<typeof duplicateMarkSchema>;

/** POST /api/incidents/{id}/dismiss-duplicate's answer. */
export const dismissedDuplicateSchema = z.object({
  incident_id: z.string(),
  other_id: z.string(),
  dismissed_at: z.int().meta({ description: "Unix seconds" }),
  dismissed_by: z.string().meta({ description: "The person's or key's name" }),
});
export type DismissedDuplicate = z.infer<typeof dismissedDuplicateSchema>;

export const listedIncidentSchema = incidentRecordSchema.extend(possibleDuplicatesField);
export type ListedIncident = z.infer<typeof listedIncidentSchema>;

export const incidentListSchema = z.object({
  incidents: z.array(listedIncidentSchema),
  pagination: z.object({
    limit: z.int(),
    offset: z.int(),
    total: z.int().meta({ description: "Incidents matching the filters" }),
    has_more: z.boolean(),
  }),
  filters: z.object({
    status: z.string().nullable(),
    emergency_type: z.string().nullable(),
    severity: z.string().nullable(),
  }),
});

export type IncidentList = z.infer<typeof incidentListSchema>;

/** Whether a trainer may act on the incident (lib/access/status-rule.ts); a dispatcher may act on any. */
export const incidentTrainingSchema = z.boolean().meta({
  description: "Every call of the incident is a training call (simulated or exercise): a trainer may act on it too",
});

export const incidentCallSchema = callRecordSchema.extend({
  distance_m: z.number().nullable().meta({
    description: "Metres from the incident's centre to the call's own point; null when either has none",
  }),
});

/** An incident's status move as incident_status_changes keeps it (docs/incidents.md, "Dispatch reason and disposition"). */
export const statusChangeSchema = z.object({
  id: z.string().meta({ description: "The move's id: what POST /api/incidents/{id}/undo-status names" }),
  from_status: statusSchema,
  status: statusSchema,
  changed_at: z.string().meta({ description: "ISO 8601 UTC" }),
  changed_by_name: z.string().meta({ description: "The person or key who made it, as named then" }),
  dispatch_reason: z.string().nullable().meta({ description: "Why it was dispatched (or en route) with no unit on it" }),
  disposition: z.string().nullable().meta({
    description: `How it ended, on a close: one of ${DISPOSITIONS.join(", ")}, or ${UNITS_CLEARED} when it closed as its last unit cleared`,
  }),
  undoes: z.string().nullable().meta({ description: "An undo's move: the id of the move it reverted" }),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;

export const incidentDetailSchema = incidentRecordSchema.extend({
  ...possibleDuplicatesField,
  training: incidentTrainingSchema,
  status_change: statusChangeSchema.nullable().meta({ description: "Its latest status move made by a person, a key or its units (null: none yet)" }),
  units_sent: z.object({
    open: z.int().meta({ description: "Units on it now (open assignments)" }),
    cleared: z.int().meta({ description: "Units sent to it that have cleared" }),
  }),
  calls: z.array(incidentCallSchema).meta({ description: "Every call of the incident, oldest first, each with its own location" }),
});

export type IncidentDetail = z.infer<typeof incidentDetailSchema>;

/** GET /api/incidents/{id}/merge-candidates's query (docs/incidents.md, "Dispatcher actions"). */
export const mergeCandidatesQueryParameters = {
  q: queryParameter({
    schema: z.string().min(1).max(100).refine((text) => !text.includes("\u0000") && text.isWellFormed()),
    description: "Words the candidate's location text or emergency type contains (case-insensitive), 1 to 100 characters.",
    label: "Invalid parameter",
    message: "q must be 1 to 100 characters of text",
  }),
  limit: queryParameter({
    schema: z.codec(z.string().regex(/^\d+$/), z.int().min(1).max(100), { decode: Number, encode: String }).default(20),
    description: "At most this many candidates, 1 to 100 (default 20).",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 100",
  }),
};

export const mergeCandidateSchema = incidentRecordSchema.extend({
  distance_m: z.int().nullable().meta({ description: "Metres from this incident's point to the candidate's; null when either has none" }),
});
export type MergeCandidate = z.infer<typeof mergeCandidateSchema>;

export const mergeCandidatesSchema = z.object({
  candidates: z.array(mergeCandidateSchema).meta({
    description: "Open incidents of its kind (training or real) that may be merged into it, nearest first, then the latest call first",
  }),
});
export type MergeCandidates = z.infer<typeof mergeCandidatesSchema>;

export const mergeRequestSchema = z.object({
  other_id: z.string().min(1).max(100).meta({ description: "The incident whose calls move into this one; it ceases to exist" }),
});

export const dismissDuplicateRequestSchema = z.object({
  other_id: z.string().min(1).max(100).meta({ description: "The incident marked as a possible duplicate of this one" }),
});

export const splitRequestSchema = z.object({
  call_id: z.string().min(1).max(1000).meta({ description: "conversation_id of a call of this incident" }),
});

export function parseMergeRequest(body: unknown): z.infer<typeof mergeRequestSchema> {
  const result = mergeRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid other_id", "other_id must be an incident id");
  return result.data;
}

export function parseDismissDuplicateRequest(body: unknown): z.infer<typeof dismissDuplicateRequestSchema> {
  const result = dismissDuplicateRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid other_id", "other_id must be an incident id");
  return result.data;
}

export function parseSplitRequest(body: unknown): z.infer<typeof splitRequestSchema> {
  const result = splitRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid call_id", "call_id must be a call's conversation_id");
  return result.data;
}

/** PATCH /api/incidents/{id}: the calls' fields (status, emergency_type, severity), and what a status move must say. */
export const incidentPatchSchema = incidentUpdateSchema.extend({
  dispatch_reason: z.string().optional().meta({
    description: `With status dispatched or enroute and no unit on the incident: why (1 to ${DISPATCH_REASON_MAX} characters); without it such a move is 409 DISPATCH_WITHOUT_UNIT. Shown in the intervals report`,
  }),
  disposition: z.enum(DISPOSITIONS).optional().meta({ description: "Required with status resolved or failed: how the incident ended" }),
});
export type IncidentPatch = IncidentUpdate & { dispatch_reason?: string; disposition?: Disposition };

export function parseIncidentPatch(body: unknown): IncidentPatch {
  const update = parseIncidentUpdate(body);
  const { dispatch_reason: reason, disposition } = body as Record<string, unknown>;
  const patch: IncidentPatch = { ...update };
  if (reason !== undefined) {
    const text = typeof reason === "string" ? reason.trim() : "";
    if (text.length === 0 || text.length > DISPATCH_REASON_MAX || !text.isWellFormed() || text.includes("\u0000")) {
      throw invalidParameter("Invalid dispatch_reason", `dispatch_reason must be 1 to ${DISPATCH_REASON_MAX} characters of text`);
    }
    if (update.status !== "dispatched" && update.status !== "enroute") {
      throw invalidParameter("Invalid dispatch_reason", "dispatch_reason goes with status dispatched or enroute");
    }
    patch.dispatch_reason = text;
  }
  if (disposition !== undefined) {
    if (!(DISPOSITIONS as readonly unknown[]).includes(disposition)) {
      throw invalidParameter("Invalid disposition", `disposition must be one of ${DISPOSITIONS.join(", ")}`);
    }
    if (update.status !== "resolved" && update.status !== "failed") {
      throw invalidParameter("Invalid disposition", "disposition goes with status resolved or failed");
    }
    patch.disposition = disposition as Disposition;
  }
  return patch;
}

export const undoStatusRequestSchema = z.object({
  change_id: z.string().min(1).max(100).meta({ description: "The move to revert: the id of the incident's status_change" }),
});

export function parseUndoStatusRequest(body: unknown): z.infer<typeof undoStatusRequestSchema> {
  const result = undoStatusRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid change_id", "change_id must be the id of the incident's status move");
  return result.data;
}
