import { z } from "zod";
import { invalidParameter } from "../domain-error";
import { LOCATION_SOURCES, PRECISIONS } from "../geocoding/types";
import { queryParameter } from "../query-parameters";
import { CALL_SOURCES, EMERGENCY_TYPES, SEVERITIES, STATUSES, TABLE_NAME_PATTERN } from "../vocabulary";

/**
 * The zod schemas of the calls API: they validate requests, type the responses, and are the
 * source of the OpenAPI document (lib/http/openapi.ts), so the documentation cannot drift.
 */

export { EMERGENCY_TYPES, PLATFORMS, SEVERITIES, STATUSES, TABLE_NAME_PATTERN, type CallStatus, type Platform, type Severity } from "../vocabulary";

export const severitySchema = z.enum(SEVERITIES);
export const statusSchema = z.enum(STATUSES);
export const platformSchema = z.enum(CALL_SOURCES);

/** ISO 8601 date (`2025-01-31`) or date-time (`2025-01-31T14:05`, seconds, fraction, `Z`/offset optional). */
export const ISO_DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const digits = z.string().regex(/^\d+$/);
const isoDate = z.string().regex(ISO_DATE_PATTERN);

/** limit and offset, as every paginated listing takes them (GET /api/calls, GET /api/incidents). */
export const pagingParameters = {
  limit: queryParameter({
    schema: z
      .codec(digits, z.int().min(1).max(1000), { decode: Number, encode: String })
      .default(50),
    description: "Page size, 1 to 1000.",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 1000",
  }),
  offset: queryParameter({
    schema: z
      .codec(digits, z.int().min(0).max(Number.MAX_SAFE_INTEGER), { decode: Number, encode: String })
      .default(0),
    description: "Records to skip, 0 or more.",
    label: "Invalid offset",
    message: "offset must be a non-negative integer",
  }),
};

/** The filters of GET /api/calls and of its CSV export, combined with AND, in the order they are checked. */
export const callFilterParameters = {
  emergency_type: queryParameter({
    schema: z.string().max(100),
    description: `Exact emergency type, e.g. ${EMERGENCY_TYPES.slice(0, 3).join(", ")}.`,
    label: "Invalid parameter",
    message: "emergency_type must be at most 100 characters",
  }),
  severity: queryParameter({
    schema: severitySchema,
    description: "Exact severity.",
    label: "Invalid parameter",
    message: `severity must be one of ${SEVERITIES.join(", ")}`,
  }),
  status: queryParameter({
    schema: statusSchema,
    description: "Exact status.",
    label: "Invalid parameter",
    message: `status must be one of ${STATUSES.join(", ")}`,
  }),
  location: queryParameter({
    schema: z.string().max(200),
    description: "Case-insensitive substring of the record's location; `%` and `_` match themselves.",
    label: "Invalid parameter",
    message: "location must be at most 200 characters",
  }),
  q: queryParameter({
    schema: z.string().min(3).max(200),
    description:
      "Case-insensitive text, 3 to 200 characters, found in the summary, the location or the transcript (what the caller and the agent said); `%` and `_` match themselves.",
    label: "Invalid parameter",
    message: "q must be 3 to 200 characters",
  }),
  simulation: queryParameter({
    schema: z.stringbool({ truthy: ["true"], falsy: ["false"], case: "sensitive" }),
    description: "`true`: simulated calls only; `false`: real calls only.",
    label: "Invalid parameter",
    message: "simulation must be true or false",
  }),
  caller_phone: queryParameter({
    schema: z.string().max(64),
    description:
      "The caller's number, matched after the same normalisation as stored numbers (E.164 where possible): `+16155550123`, `(615) 555-0123` and `16155550123` find the same calls.",
    label: "Invalid parameter",
    message: "caller_phone must be at most 64 characters",
  }),
  platform: queryParameter({
    schema: platformSchema,
    description: "Where the call came from: the voice-agent platform (simulated calls count as `elevenlabs`), or `call_taker` for calls people took (POST /api/calls).",
    label: "Invalid parameter",
    message: `platform must be one of ${CALL_SOURCES.join(", ")}`,
  }),
  table_name: queryParameter({
    schema: z.string().regex(TABLE_NAME_PATTERN),
    description: "Exact call-store table (`calls` for voice-agent calls, the simulation's table_name otherwise).",
    label: "Invalid parameter",
    message: `table_name must match ${TABLE_NAME_PATTERN.source}`,
  }),
  start_date: queryParameter({
    schema: isoDate,
    description:
      "Inclusive lower bound on `timestamp`: ISO 8601 date or date-time (no offset means UTC).",
    label: "Invalid date format",
    message: "start_date must be in ISO 8601 format",
  }),
  end_date: queryParameter({
    schema: isoDate,
    description:
      "Inclusive upper bound on `timestamp`: ISO 8601 date (covers that whole UTC day) or date-time.",
    label: "Invalid date format",
    message: "end_date must be in ISO 8601 format",
  }),
};

/** GET /api/calls's query: paging, then the filters. */
export const listQueryParameters = { ...pagingParameters, ...callFilterParameters };

export type CallFilterParameterName = keyof typeof callFilterParameters;

// ---- Responses -------------------------------------------------------------------------------

const unixSeconds = z.int().min(0).meta({ description: "Unix seconds" });
export const precisionSchema = z.enum(PRECISIONS);
const locationSourceSchema = z.enum(LOCATION_SOURCES);

export const callRecordSchema = z
  .object({
    conversation_id: z.string().meta({ description: "Unique id; a simulated call's call_id" }),
    tracking_id: z.string().meta({
      description:
        "NENA's Call Identifier of the call under CENTRE_DOMAIN: its EIDO callComponent's $id, the key that joins an EIDO's calls to events and API records (docs/integrations.md, \"Joining calls\")",
    }),
    timestamp: unixSeconds,
    agent_id: z.string().meta({ description: "Voice-agent id; `simulator` for simulated calls" }),
    summary: z.string(),
    call_successful: z.boolean(),
    duration_secs: z.int(),
    transcript_length: z.int(),
    created_at: z.string().meta({ description: "ISO 8601 UTC record creation time" }),
    emergency_type: z.string(),
    location: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    location_precision: precisionSchema.nullable().meta({
      description:
        "How exact the point is (docs/geocoding.md): address_point, interpolated, intersection, street (grouped on distance), postal_code, locality, region (grouped only with the same address); null when there is no point, or it was geocoded before Mayday kept this",
    }),
    location_uncertainty_m: z.number().nullable().meta({ description: "Radius in metres within which the caller is (about 95%); null when unknown" }),
    location_matched: z.string().nullable().meta({
      description: "The address the centre's GIS matched `location` to, in its standard form (shown with the caller's words beside it); null when another source placed the point",
    }),
    location_source: locationSourceSchema.nullable().meta({
      description: "Who located the point: the platform's coordinates, the simulation generator, the centre's GIS data, a hosted geocoder (nominatim, pelias) or the embedded gazetteer",
    }),
    severity: z.string(),
    status: statusSchema,
    simulation: z.boolean(),
    scenario: z.string().nullable(),
    scenario_name: z.string().nullable(),
    table_name: z.string().meta({ description: "Call-store table; `calls` for voice-agent calls" }),
    call_id: z.string().optional().meta({ description: "Simulated calls only" }),
    area: z.string().optional().meta({ description: "Simulated calls only" }),
    caller_phone: z
      .string()
      .optional()
      .meta({ description: "The caller's number, E.164 where it could be normalised; absent for a web call" }),
    caller_name: z.string().optional().meta({ description: "Calls a person took (platform `call_taker`): the caller's name as they wrote it, when given" }),
    description: z.string().optional().meta({ description: "Simulated calls only" }),
    failure_reason: z
      .enum(["busy", "no-answer", "unknown"])
      .optional()
      .meta({ description: "Calls that never connected (status `failed`, from a call_initiation_failure event)" }),
    exercise_id: z
      .string()
      .optional()
      .meta({ description: "Calls released by a training exercise (always simulated): the exercise's id" }),
    incident_id: z.string().meta({ description: "The incident the call is grouped into (GET /api/incidents/{id})" }),
    platform: platformSchema.meta({ description: "Where the call came from: the voice-agent platform (`elevenlabs` for simulated calls), or `call_taker`: a person took it (POST /api/calls; `agent_id` names them)" }),
    on_line: z.literal(true).optional().meta({
      description: "Present while the caller is still talking to the voice agent: reported live, its post-call event not yet in (docs/webhook.md, \"Live calls\")",
    }),
    verified: z.boolean().nullable().meta({
      description:
        "Whether the webhook delivery was verified (signed with VOICEAGENT_WEBHOOK_SECRET, or the platform's credential); false: posted unsigned, anyone could have sent it; null: simulated, or stored before Mayday kept this",
    }),
    recording_url: z
      .string()
      .optional()
      .meta({
        description:
          "The platform's link to the call's audio as it sent it (Vapi, Retell); it may expire with the platform's retention, so Mayday archives the audio (the detail's `recording`)",
      }),
    original_emergency_type: z
      .string()
      .optional()
      .meta({ description: "Present when a dispatcher corrected emergency_type: what the voice agent (or simulator) said" }),
    original_severity: z.string().optional().meta({ description: "Present when a dispatcher corrected severity: the agent's value" }),
    original_location: z.string().optional().meta({ description: "Present when a dispatcher corrected location: the agent's text" }),
  });

export type CallRecord = z.infer<typeof callRecordSchema>;

const filterEchoSchema = z.object({
  emergency_type: z.string().nullable(),
  severity: z.string().nullable(),
  status: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  location: z.string().nullable(),
  simulation: z.boolean().nullable(),
  table_name: z.string().optional().meta({ description: "Present only when the filter was given" }),
  caller_phone: z.string().optional().meta({ description: "Present only when the filter was given, as normalised" }),
  platform: z.string().optional().meta({ description: "Present only when the filter was given" }),
  q: z.string().optional().meta({ description: "Present only when the filter was given" }),
});

export type FilterEcho = z.infer<typeof filterEchoSchema>;

export const callListSchema = z
  .object({
    calls: z.array(callRecordSchema),
    pagination: z.object({
      limit: z.int(),
      offset: z.int(),
      total: z.int().meta({ description: "Records matching the filters" }),
      has_more: z.boolean(),
    }),
    filters: filterEchoSchema,
  });

export type CallList = z.infer<typeof callListSchema>;

export const statusChangeSchema = z.object({
  status: statusSchema,
  changed_at: z.string().meta({ description: "ISO 8601 UTC" }),
  changed_by: z.string().meta({
    description: "Who made the change: the person's (or API key's) name at the time, or the service part (webhook, simulator)",
  }),
});

/** The fields a dispatcher corrects (docs/calls.md, "Corrections"). */
export const CORRECTED_FIELDS = ["emergency_type", "severity", "location"] as const;
export type CorrectedField = (typeof CORRECTED_FIELDS)[number];

export const correctionSchema = z.object({
  field: z.enum(CORRECTED_FIELDS),
  from: z.string(),
  to: z.string(),
  changed_at: z.string().meta({ description: "ISO 8601 UTC" }),
  changed_by: z.string().meta({ description: "The person's (or API key's) name at the time" }),
});

/** Another call from the same number, as the call detail lists it. */
export const relatedCallSchema = z.object({
  conversation_id: z.string(),
  timestamp: unixSeconds,
  emergency_type: z.string(),
  severity: z.string(),
  status: statusSchema,
});

export const recordingLinkSchema = z.object({
  url: z.string().meta({ description: "GET it (with the same credentials) for the audio, as content_type; supports Range requests" }),
  content_type: z.string(),
  size_bytes: z.int(),
});

/** One turn of the conversation (lib/calls/handed-over.ts transcriptTurns). */
export const transcriptTurnSchema = z.object({
  speaker: z.string().meta({ description: "As the platform named the speaker: `agent`, `user`, `caller`...; `unknown` when it did not" }),
  time_in_call_secs: z.number().nullable().meta({ description: "Seconds since the conversation's first turn; null when the turn had no time" }),
  text: z.string(),
});

export const callDetailSchema = callRecordSchema
  .extend({
    transcript: z
      .array(transcriptTurnSchema)
      .meta({ description: "The conversation turn by turn, in the order spoken; empty when the platform sent none (and for simulated calls)" }),
    history: z.array(statusChangeSchema).meta({ description: "Every status, oldest first, the creation included" }),
    corrections: z
      .array(correctionSchema)
      .meta({ description: "Every correction of emergency_type, severity or location, oldest first" }),
    other_calls_from_number: z
      .array(relatedCallSchema)
      .meta({ description: "Up to 20 other calls from the same caller_phone, newest first; empty without a number" }),
    recording: recordingLinkSchema
      .nullable()
      .meta({
        description:
          "The call's recording in Mayday's storage (ElevenLabs' post_call_audio, or a Vapi or Retell recording_url once archived), null while there is none",
      }),
    simulated_record: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "Simulated calls only: the record exactly as generated" }),
  });

export type CallDetail = z.infer<typeof callDetailSchema>;

/** The longest spoken location a correction may give (the geocoder reads at most this much anyway). */
export const LOCATION_MAX_LENGTH = 500;

const correctionFields = {
  emergency_type: z.enum(EMERGENCY_TYPES).meta({ description: "Corrected emergency type (one of docs/interface.md's types)" }),
  severity: severitySchema.meta({ description: "Corrected severity" }),
  location: z
    .string()
    .trim()
    .min(1)
    .max(LOCATION_MAX_LENGTH)
    .meta({ description: "Corrected spoken location; geocoded again, the call's point moves with it" }),
};

const fieldMessages: Record<string, string> = {
  status: `status must be one of ${STATUSES.join(", ")}`,
  emergency_type: `emergency_type must be one of ${EMERGENCY_TYPES.join(", ")}`,
  severity: `severity must be one of ${SEVERITIES.join(", ")}`,
  location: `location must be text of 1 to ${LOCATION_MAX_LENGTH} characters`,
  confirm_lower_precision: "confirm_lower_precision must be true or false",
  confirm_coarse: "confirm_coarse must be true or false",
};

/** Fields that qualify a change without being one (confirm_lower_precision, confirm_coarse). */
const QUALIFIERS = new Set(["confirm_lower_precision", "confirm_coarse"]);

/** A body with at least one of `fields`, each valid; the first bad field named in a 400. */
function parseUpdate<T extends z.ZodRawShape>(schema: z.ZodObject<T>, body: unknown): z.infer<z.ZodObject<T>> {
  const fields = Object.keys(schema.shape).filter((field) => !QUALIFIERS.has(field));
  const given = body !== null && typeof body === "object" && !Array.isArray(body) ? fields.filter((field) => field in body) : [];
  if (given.length === 0) throw invalidParameter("Invalid parameter", `The body must give at least one of ${fields.join(", ")}`);
  const result = schema.safeParse(body);
  if (!result.success) {
    const field = String(result.error.issues[0].path[0]);
    throw invalidParameter(`Invalid ${field}`, fieldMessages[field]);
  }
  return result.data;
}

/** PATCH /api/calls/{id}: a status move, corrections of what the agent heard, or both. */
export const callUpdateSchema = z
  .object({
    status: statusSchema.optional(),
    emergency_type: correctionFields.emergency_type.optional(),
    severity: correctionFields.severity.optional(),
    location: correctionFields.location.optional(),
    confirm_lower_precision: z.boolean().optional().meta({
      description:
        "true: take a location less exact than the call's (e.g. a town centre for an address point); without it such a correction is 409 PRECISION_LOWERED and changes nothing",
    }),
    confirm_coarse: z.boolean().optional().meta({
      description:
        "true: take a location naming a street the centre's GIS does not have in a community it covers, placed where the other geocoders put it (often the town's centre), however less exact than the call's; without it such a correction is 409 STREET_NOT_IN_GIS and changes nothing",
    }),
  })
  .meta({ description: "At least one field; any combination. Other fields are ignored." });

export type CallUpdate = z.infer<typeof callUpdateSchema>;

/** PATCH /api/calls/{id}'s answer: the call, and the incident it left when the correction moved it out. */
export const callUpdatedSchema = callDetailSchema.extend({
  moved_out_of: z.string().optional().meta({
    description:
      "The incident a location or type correction moved the call out of (its other calls stay there); correcting back is the undo (docs/calls.md)",
  }),
});

export type CallUpdated = z.infer<typeof callUpdatedSchema>;

export function parseCallUpdate(body: unknown): CallUpdate {
  return parseUpdate(callUpdateSchema, body);
}

/** PATCH /api/incidents/{id}: a status move, a correction of every one of its calls' type or severity, or both. */
export const incidentUpdateSchema = callUpdateSchema
  .omit({ location: true, confirm_lower_precision: true, confirm_coarse: true })
  .meta({ description: "At least one field; any combination. Other fields are ignored." });

export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

export function parseIncidentUpdate(body: unknown): IncidentUpdate {
  return parseUpdate(incidentUpdateSchema, body);
}
