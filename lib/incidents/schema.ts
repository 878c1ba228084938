import { z } from "zod";
import { callFilterParameters, callRecordSchema, pagingParameters, precisionSchema, severitySchema, statusSchema } from "../calls/schema";
import { invalidParameter } from "../domain-error";
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
  location: z.string().meta({ description: "The first call's location text" }),
  latitude: z.number().nullable().meta({ description: "Centroid of its calls with coordinates; null when none has" }),
  longitude: z.number().nullable(),
  location_precision: precisionSchema.nullable().meta({
    description: "The best precision of its calls (docs/geocoding.md); null when none is known",
  }),
  first_call_at: z.string().meta({ description: "ISO 8601 UTC time of its earliest call" }),
  last_call_at: z.string().meta({ description: "ISO 8601 UTC time of its latest call" }),
  call_count: z.int().meta({ description: "Number of its calls" }),
});

export type IncidentRecord = z.infer<typeof incidentRecordSchema>;

export const incidentListSchema = z.object({
  incidents: z.array(incidentRecordSchema),
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

export const incidentDetailSchema = incidentRecordSchema.extend({
  training: incidentTrainingSchema,
  calls: z.array(incidentCallSchema).meta({ description: "Every call of the incident, oldest first, each with its own location" }),
});

export type IncidentDetail = z.infer<typeof incidentDetailSchema>;

export const mergeRequestSchema = z.object({
  other_id: z.string().min(1).max(100).meta({ description: "The incident whose calls move into this one; it ceases to exist" }),
});

export const splitRequestSchema = z.object({
  call_id: z.string().min(1).max(1000).meta({ description: "conversation_id of a call of this incident" }),
});

export function parseMergeRequest(body: unknown): z.infer<typeof mergeRequestSchema> {
  const result = mergeRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid other_id", "other_id must be an incident id");
  return result.data;
}

export function parseSplitRequest(body: unknown): z.infer<typeof splitRequestSchema> {
  const result = splitRequestSchema.safeParse(body);
  if (!result.success) throw invalidParameter("Invalid call_id", "call_id must be a call's conversation_id");
  return result.data;
}
