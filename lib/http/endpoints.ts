import { z } from "zod";
import {
  apiKeyListSchema, apiKeySchema, createdApiKeySchema, createKeySchema, createUserSchema, newPersonSchema, parseCreateKey,
  parseCreateUser, parseNewPerson, parseSignIn, parseUpdateUser, setupStateSchema, signInSchema, updateUserSchema, userListSchema,
  ssoQueryParameters, userSchema, whoAmISchema,
} from "../access/schema";
import { writeAcknowledgementSchema } from "../access/write-answer";
import { auditPageSchema, auditQueryParameters } from "../audit/schema";
import { acknowledgementSchema } from "../acknowledgements/schema";
import {
  callDetailSchema, callFilterParameters, callListSchema, callUpdatedSchema, callUpdateSchema, incidentUpdateSchema, listQueryParameters, parseCallUpdate,
  parseIncidentUpdate,
} from "../calls/schema";
import {
  createExerciseSchema,
  debriefSchema,
  type ExerciseAction,
  exerciseListSchema,
  exerciseParams,
  exerciseSchema,
  parseCreateExercise,
} from "../exercises/schema";
import { healthQueryParameters, healthReportSchema } from "../health/report";
import {
  incidentDetailSchema, incidentListQueryParameters, incidentListSchema, mergeRequestSchema, parseMergeRequest,
  parseSplitRequest, splitRequestSchema,
} from "../incidents/schema";
import { mapPlacesQueryParameters, mapPlacesSchema, PLACE_NAMES_FROM_ZOOM } from "../geocoding/map-places-schema";
import {
  NOTE_MAX_BODY_BYTES, NOTE_MAX_CHARACTERS, noteRequestSchema, noteSchema, notesPageSchema, notesQueryParameters, parseNoteRequest,
} from "../notes/schema";
import {
  ALERTS_LISTED, alertsQueryParameters, alertsSchema, boardSchema, changePageSchema, changesQueryParameters, exerciseVisibilityParameters, hourlySeriesSchema,
  incidentMapViewSchema, incidentQueuePageSchema, incidentQueueQueryParameters, mapQueryParameters, mapViewSchema,
  queuePageSchema, queueQueryParameters, streamQueryParameters,
} from "../live/schema";
import type { RateLimitPolicy } from "../rate-limit";
import { intervalsQueryParameters, intervalsReportSchema } from "../reports/schema";
import { parseSimulateRequest, simulateRequestSchema } from "../simulation/request";
import { simulationResultSchema } from "../simulation/result";
import { retellEventSchema } from "../intake/platforms/retell";
import { vapiMessageSchema } from "../intake/platforms/vapi";
import {
  createSubscriptionSchema, deliveriesQueryParameters, deliveryPageSchema, parseCreateSubscription, parseUpdateSubscription,
  replayQueryParameters, subscriptionListSchema, subscriptionParams, subscriptionSchema, subscriptionWithSecretSchema,
  updateSubscriptionSchema,
} from "../subscriptions/schema";
import { webhookAnswerSchema, webhookEventSchema } from "../webhook/payload";
import {
  gisImportBodySchema, gisImportQueryParameters, gisImportResultSchema, gisLayerListSchema,
} from "../geocoding/centre/schema";
import type { ErrorCode } from "./api-error";
import { type Endpoint, jsonBody, type Method, rawBody } from "./endpoint";

/**
 * Every API endpoint's contract, one entry each: path, protection, and per method the request
 * schemas, answers and error codes. apiRoute validates from it, proxy.ts answers 405 from it and
 * lib/http/openapi.ts generates the OpenAPI document from it. How to add one: docs/endpoints.md.
 */

const MINUTE = 60_000;

/** Every rate-limit policy; endpoints naming the same policy share one budget per client. */
export const rateLimitPolicies = {
  /** The listing, one call and its status changes. */
  calls: { bucket: "calls", limit: 1000, windowMs: MINUTE, whenStoreDown: "local" },
  // Each request may write 1000 calls: with the shared count gone, refusing is the safe answer.
  simulate: { bucket: "simulate", limit: 100, windowMs: MINUTE, whenStoreDown: "refuse" },
  // A refused delivery may be a lost emergency call: never refuse for want of a counter.
  webhook: { bucket: "webhook", limit: 1000, windowMs: MINUTE, whenStoreDown: "allow" },
  // Vapi and Retell: a budget of their own each, so a surge on one platform never refuses another's
  // calls. Vapi does not retry a refused report, and posts from few addresses: room for 50 a second.
  vapiWebhook: { bucket: "vapi-webhook", limit: 3000, windowMs: MINUTE, whenStoreDown: "allow" },
  retellWebhook: { bucket: "retell-webhook", limit: 3000, windowMs: MINUTE, whenStoreDown: "allow" },
  // Where a password can be tried without holding one: few tries per client (and per account: lib/access/session.ts).
  session: { bucket: "session", limit: 10, windowMs: MINUTE, whenStoreDown: "local" },
  // Sign-in through the identity provider: two redirects per sign-in, no password to guess here.
  sso: { bucket: "sso", limit: 30, windowMs: MINUTE, whenStoreDown: "local" },
  // People, keys and the audit trail: administrators' pages.
  admin: { bucket: "admin", limit: 300, windowMs: MINUTE, whenStoreDown: "local" },
  // Trainers' controls and the dashboard's progress polling (every few seconds per open dashboard).
  exercises: { bucket: "exercises", limit: 300, windowMs: MINUTE, whenStoreDown: "local" },
} satisfies Record<string, RateLimitPolicy>;

/** What every platform's webhook answers (lib/intake): the same body, the same errors. */
const webhookAnswer = (description: string) =>
  ({ 200: { description, body: { name: "WebhookResponse", schema: webhookAnswerSchema } } }) as const;
const WEBHOOK_ERRORS: ErrorCode[] = [
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "INVALID_JSON",
  "MISSING_FIELDS",
  "INVALID_SIGNATURE",
  "STORAGE_ERROR",
  "GEOCODING_ERROR",
];

/**
 * The answer of a write a caller without `read` may make: the record, or to that caller the
 * acknowledgement (lib/access/write-answer.ts; docs/security.md, "Answers to writes").
 */
const writeAnswer = (record: string, schema: z.ZodType) => ({
  name: `${record}OrAcknowledgement`,
  schema: z.union([schema, writeAcknowledgementSchema]),
});
const callWriteAnswer = writeAnswer("CallUpdated", callUpdatedSchema);
const incidentWriteAnswer = writeAnswer("IncidentDetail", incidentDetailSchema);
const WITHOUT_READ = " (to a caller without `read`: id, status and what changed)";

const exerciseProtection = { rateLimit: rateLimitPolicies.exercises } as const;
const exerciseResponse = { name: "Exercise", schema: exerciseSchema };

/** POST /api/exercises/{id}/{action}: one endpoint per control, one verb per file in lib/exercises. */
const exerciseControl = (action: ExerciseAction, summary: string) =>
  ({
    path: `/api/exercises/:id/${action}`,
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      POST: {
        operationId: `${action}Exercise`,
        permission: "train",
        summary,
        responses: { 200: { description: "The exercise after the change", body: exerciseResponse } },
        errors: ["NOT_FOUND", "INVALID_TRANSITION", "DATABASE_ERROR"],
      },
    },
  }) satisfies Endpoint;

const exerciseControls = {
  start: "Start a planned exercise: its calls begin to fall due",
  pause: "Pause a running exercise: exercise time stops, no call falls due",
  resume: "Resume a paused exercise where it was paused",
  stop: "Stop a running or paused exercise for good: calls not yet released never are",
} satisfies Record<ExerciseAction, string>;

export const endpoints = {
  calls: {
    path: "/api/calls",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listCalls",
        permission: "read",
        summary: "List stored calls, newest first, filtered and paginated",
        query: listQueryParameters,
        responses: { 200: { description: "One page of matching calls", body: { name: "CallList", schema: callListSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  callsExport: {
    path: "/api/calls/export.csv",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "exportCalls",
        permission: "read",
        summary: "Every call matching the filters of GET /api/calls, as a CSV file",
        description:
          "UTF-8 with a header row, newest call first, streamed. A text cell that starts with =, +, -, @, " +
          "a tab or a carriage return gets a leading ' so that spreadsheets show it as text.",
        query: callFilterParameters,
        responses: {
          200: {
            description: "The calls, as an attachment (Content-Disposition)",
            contentType: "text/csv",
            body: { schema: z.string() },
          },
        },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  // The live picture (lib/live, docs/dashboard.md). Declared before `call`, whose /api/calls/:id
  // pattern also matches /api/calls/changes and /api/calls/stream.
  changes: {
    path: "/api/calls/changes",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listCallChanges",
        permission: "read",
        summary: "The change feed: calls changed and incident notes kept after a change number, in change order",
        description:
          "Every insert and update of a call takes the next change number; each call appears once, at its latest " +
          "change. An incident's note takes a number of the same sequence when it is kept (or moved by a merge). Gapless: a change committed later never has a number below one already served. The polling " +
          "path of the dashboard; GET /api/calls/stream pushes the same changes.",
        query: changesQueryParameters,
        responses: { 200: { description: "One page of changes", body: { name: "ChangePage", schema: changePageSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  stream: {
    path: "/api/calls/stream",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "streamCallChanges",
        permission: "read",
        summary: "The change feed pushed as server-sent events",
        description:
          "Events `change` with `id` = change number and `data` = one entry of ChangePage's changes (a call or a note). Replays every " +
          "change after Last-Event-ID (or `after`), then follows new ones as they commit on any app instance. " +
          "Comment lines every 15 s keep idle proxies from closing it.",
        query: streamQueryParameters,
        headers: {
          "last-event-id": { description: "The last change number received (sent by a reconnecting EventSource)", required: false },
        },
        responses: { 200: { description: "An endless text/event-stream", contentType: "text/event-stream", body: { schema: z.string() } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  board: {
    path: "/api/live/board",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getBoard",
        permission: "read",
        summary: "Board summary: exact counts of open calls, counts by type, longest waits, calls per hour",
        query: exerciseVisibilityParameters,
        responses: { 200: { description: "The summary, with the change number it is current to", body: { name: "Board", schema: boardSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  queue: {
    path: "/api/live/queue",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getQueue",
        permission: "read",
        summary: "Open calls in urgency order (severity, then longest waiting), keyset-paginated",
        query: { ...queueQueryParameters, ...exerciseVisibilityParameters },
        responses: { 200: { description: "One page of the queue", body: { name: "QueuePage", schema: queuePageSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  map: {
    path: "/api/live/map",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getMapView",
        permission: "read",
        summary: "Clusters and markers for a map viewport: open calls and recently closed ones",
        description:
          "Calls are grouped on a grid of about 64-pixel cells at the zoom; a call alone in its cell, and every " +
          "call from zoom 16, is a marker. The answer grows with the viewport, not with the stored calls.",
        query: { ...mapQueryParameters, ...exerciseVisibilityParameters },
        responses: { 200: { description: "The viewport's clusters and markers", body: { name: "MapView", schema: mapViewSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  liveIncidents: {
    path: "/api/live/incidents",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getIncidentQueue",
        permission: "read",
        summary: "Open incidents, by section, in urgency order (severity, then longest waiting) or by time received, each with its latest call, keyset-paginated without a cap",
        query: { ...incidentQueueQueryParameters, ...exerciseVisibilityParameters },
        responses: {
          200: { description: "One page of the incident queue", body: { name: "IncidentQueuePage", schema: incidentQueuePageSchema } },
        },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  liveAlerts: {
    path: "/api/live/alerts",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getAlerts",
        permission: "read",
        summary: "What must not be missed: open critical incidents with unacknowledged new calls, and incidents waiting undispatched past their threshold",
        description:
          "Read from every open incident, however far down the queue it ranks; the dashboard reads it again when the change feed moves " +
          `(acknowledgements included) and on a timer for reminders. At most ${ALERTS_LISTED} of each kind are listed, \`total\` counts them all.`,
        query: alertsQueryParameters,
        responses: { 200: { description: "The alerts", body: { name: "Alerts", schema: alertsSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  mapPlaces: {
    path: "/api/map/places",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getMapPlaces",
        permission: "read",
        summary: "Town and city names for the offline map's viewport",
        description:
          "From the geocoder's own US place lists (no stored call is read): the largest place of each label-sized cell " +
          `of the viewport, so a wider view names the larger places; none below zoom ${PLACE_NAMES_FROM_ZOOM}. The same view always gets the same answer.`,
        query: mapPlacesQueryParameters,
        responses: { 200: { description: "The places to name", body: { name: "MapPlaces", schema: mapPlacesSchema } } },
        errors: ["INVALID_PARAMETER"],
      },
    },
  },

  incidentMap: {
    path: "/api/live/incident-map",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getIncidentMapView",
        permission: "read",
        summary: "Clusters and markers of incidents for a map viewport: open incidents and recently closed ones",
        description:
          "The grid of GET /api/live/map over incidents (at their centroid): a cell counts incidents and their calls; " +
          "an incident alone in its cell, and every one from zoom 16, is a marker with its call count and latest call.",
        query: { ...mapQueryParameters, ...exerciseVisibilityParameters },
        responses: {
          200: { description: "The viewport's clusters and incident markers", body: { name: "IncidentMapView", schema: incidentMapViewSchema } },
        },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  hourly: {
    path: "/api/live/hourly",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getHourlySeries",
        permission: "read",
        summary: "Calls per hour by severity under GET /api/calls's filters",
        query: { ...callFilterParameters, ...exerciseVisibilityParameters },
        responses: { 200: { description: "The series", body: { name: "HourlySeries", schema: hourlySeriesSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  call: {
    path: "/api/calls/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({
      id: z.string().meta({ description: "The call's conversation_id (a simulated call's call_id), URL-encoded." }),
    }),
    methods: {
      GET: {
        operationId: "getCall",
        permission: "read",
        summary: "One call with its status history",
        responses: { 200: { description: "The call", body: { name: "CallDetail", schema: callDetailSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateCall",
        permission: ["dispatch", "train"],
        summary: "Move a call along its status workflow, correct its emergency type, severity or location, or both",
        description:
          "status: forward along active, dispatched, enroute, resolved (skipping allowed); any non-final status to failed; " +
          "resolved and failed are final; the current status again changes nothing. emergency_type, severity, location: " +
          "a dispatcher's correction of what the voice agent heard; the agent's value stays in original_<field> and each " +
          "change is listed in corrections. A location is geocoded again (400 when no place matches, 500 GEOCODING_ERROR " +
          "when the geocoder cannot answer) and may move the call to another incident (docs/incidents.md). " +
          "Any refusal changes nothing.",
        body: jsonBody({ name: "CallUpdate", schema: callUpdateSchema }, parseCallUpdate),
        responses: { 200: { description: `The call after the change${WITHOUT_READ}`, body: callWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "PRECISION_LOWERED", "GEOCODING_ERROR", "DATABASE_ERROR"],
      },
    },
  },

  recording: {
    path: "/api/calls/:id/recording",
    errorFormat: "calls",
    // An <audio> element fetches a recording in a few range requests: the calls budget.
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({
      id: z.string().meta({ description: "The call's conversation_id, URL-encoded." }),
    }),
    methods: {
      GET: {
        operationId: "getCallRecording",
        permission: "read",
        summary: "The call's recording: a post_call_audio event's (audio/mpeg), or a Vapi or Retell recording archived from its link",
        description:
          "Streamed from object storage as the detail's `recording.content_type` (audio/mpeg, audio/wav, ...). " +
          "`Range: bytes=a-b`, `bytes=a-` and `bytes=-n` answer 206 with Content-Range; " +
          "several ranges or other units answer the whole recording.",
        headers: { range: { description: "`bytes=a-b`, `bytes=a-` or `bytes=-n`", required: false } },
        responses: {
          200: { description: "The whole recording", contentType: "audio/*", body: { schema: z.string().meta({ format: "binary" }) } },
          206: { description: "The range asked for", contentType: "audio/*", body: { schema: z.string().meta({ format: "binary" }) } },
        },
        errors: ["NOT_FOUND", "RANGE_NOT_SATISFIABLE", "DATABASE_ERROR"],
      },
    },
  },

  // Incidents (lib/incidents, docs/incidents.md): calls about one emergency, grouped when stored.
  incidents: {
    path: "/api/incidents",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listIncidents",
        permission: "read",
        summary: "List incidents, latest call first, filtered and paginated",
        query: incidentListQueryParameters,
        responses: { 200: { description: "One page of matching incidents", body: { name: "IncidentList", schema: incidentListSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  incident: {
    path: "/api/incidents/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "getIncident",
        permission: "read",
        summary: "One incident with all of its calls, oldest first",
        responses: { 200: { description: "The incident", body: { name: "IncidentDetail", schema: incidentDetailSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateIncident",
        permission: ["dispatch", "train"],
        summary: "Move an incident along the calls' status workflow (its open calls with it), correct its calls' type or severity, or both",
        description:
          "status: the incident follows the calls' workflow. Each of its calls that may make the same move makes it, recorded " +
          "in the call's history under the actor's name; a call already further along keeps its status. emergency_type, " +
          "severity: every call of the incident is corrected (the agent's values kept, each change in the call's " +
          "corrections); the incident takes the type and its severity follows its calls; no call leaves it.",
        body: jsonBody({ name: "IncidentUpdate", schema: incidentUpdateSchema }, parseIncidentUpdate),
        responses: { 200: { description: `The incident after the change${WITHOUT_READ}`, body: incidentWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "DATABASE_ERROR"],
      },
    },
  },

  incidentEido: {
    path: "/api/incidents/:id/eido",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "getIncidentEido",
        permission: "read",
        summary: "The incident as a NENA Emergency Incident Data Object (NENA-STA-021.1a, JSON)",
        description:
          "NENA's Incident Tracking Identifier under CENTRE_DOMAIN, APCO type code and registry status; the incident's " +
          "location and each call's (civic address and geodetic point, PIDF-LO); each call with its time, call-back URI, " +
          "summary and status history; notes; merges and splits. An incident merged away answers with its merge " +
          "(docs/integrations.md, \"EIDO\"; schema lib/eido/eido.schema.json).",
        responses: {
          200: { description: "The EIDO", body: { name: "Eido", schema: z.record(z.string(), z.unknown()) } },
        },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  incidentMerge: {
    path: "/api/incidents/:id/merge",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident that receives the calls" }) }),
    methods: {
      POST: {
        operationId: "mergeIncidents",
        permission: "dispatch",
        summary: "Move every call of other_id into this incident; other_id ceases to exist",
        body: jsonBody({ name: "MergeRequest", schema: mergeRequestSchema }, parseMergeRequest),
        description: "Training (simulated, exercise) and real calls never share an incident: such a merge is 409 TRAINING_MIX.",
        responses: { 200: { description: `The merged incident${WITHOUT_READ}`, body: incidentWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "TRAINING_MIX", "DATABASE_ERROR"],
      },
    },
  },

  incidentAcknowledge: {
    path: "/api/incidents/:id/acknowledge",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      POST: {
        operationId: "acknowledgeIncident",
        permission: ["dispatch", "train"],
        summary: "Acknowledge the incident's alert: its new calls, or its reminder, have been seen",
        description:
          "Append-only, audited (`incident.acknowledged`) and carried into the change feed (a change with `acknowledgement`), " +
          "so every dashboard's alerts drop the incident until another call arrives or its wait passes its threshold again " +
          "(docs/dashboard.md, \"Alerts\"). A trainer may acknowledge training incidents only.",
        responses: {
          201: { description: "The acknowledgement as kept (to a caller without `read`: its id and what changed)", body: writeAnswer("Acknowledgement", acknowledgementSchema) },
        },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  incidentSplit: {
    path: "/api/incidents/:id/split",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident the call leaves" }) }),
    methods: {
      POST: {
        operationId: "splitIncident",
        permission: "dispatch",
        summary: "Move one call out of this incident into a new incident of its own",
        body: jsonBody({ name: "SplitRequest", schema: splitRequestSchema }, parseSplitRequest),
        responses: { 200: { description: `The new incident${WITHOUT_READ}`, body: incidentWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  incidentNotes: {
    path: "/api/incidents/:id/notes",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "listIncidentNotes",
        permission: "read",
        summary: "The incident's notes, newest first, keyset-paginated",
        query: notesQueryParameters,
        responses: { 200: { description: "One page of notes", body: { name: "NotesPage", schema: notesPageSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
      POST: {
        operationId: "addIncidentNote",
        permission: ["dispatch", "train"],
        summary: "Keep a note on the incident (append-only; the author is who asks)",
        description:
          "Notes are kept in the order they arrive, never changed or removed, and carried into the change feed " +
          `(a change with \`note\`). A trainer may write on training incidents only. Text: 1 to ${NOTE_MAX_CHARACTERS} characters; ` +
          `a body over ${NOTE_MAX_BODY_BYTES} bytes is refused with 413.`,
        body: jsonBody({ name: "NoteRequest", schema: noteRequestSchema }, parseNoteRequest, { maxBytes: NOTE_MAX_BODY_BYTES }),
        responses: { 201: { description: "The note as kept (to a caller without `read`: its id and what changed)", body: writeAnswer("Note", noteSchema) } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  simulate: {
    path: "/api/simulate",
    errorFormat: "simulation",
    protection: { rateLimit: rateLimitPolicies.simulate },
    methods: {
      POST: {
        operationId: "simulate",
        permission: "train",
        summary: "Generate synthetic emergency calls for a disaster scenario",
        body: jsonBody({ name: "SimulateRequest", schema: simulateRequestSchema }, parseSimulateRequest),
        responses: {
          200: { description: "The request was processed", body: { name: "SimulateResponse", schema: simulationResultSchema } },
        },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  webhook: {
    path: "/api/voiceagent-webhook",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.webhook },
    methods: {
      POST: {
        operationId: "voiceAgentWebhook",
        permission: "public",
        summary: "Post-call event from the voice-agent platform",
        headers: {
          "voiceagent-signature": {
            description: '`t=<unix seconds>,v0=<hex HMAC-SHA256 of "<t>.<raw body>">`',
            required: false,
          },
        },
        body: rawBody(
          { name: "WebhookEvent", schema: webhookEventSchema },
          "The signature covers the raw bytes: lib/intake reads and validates the body itself (lib/webhook/payload.ts).",
        ),
        responses: webhookAnswer(
          "Stored: a call (post_call_transcription), a failed call (call_initiation_failure), a recording " +
            "(post_call_audio); any other type is archived and answered `Event ignored`. A 5xx is never for the content. " +
            "Also 200 while the database is down: the archived payload is recorded once it is back (docs/webhook.md).",
        ),
        errors: WEBHOOK_ERRORS,
      },
    },
  },

  vapiWebhook: {
    path: "/api/voiceagent-webhook/vapi",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.vapiWebhook },
    methods: {
      POST: {
        operationId: "vapiWebhook",
        permission: "public",
        summary: "Server message from Vapi (end-of-call-report makes a call)",
        headers: {
          "x-signature": {
            description: 'HMAC credential: hex HMAC-SHA256 of "<x-timestamp>.<raw body>" keyed by VAPI_WEBHOOK_SECRET',
            required: false,
          },
          "x-timestamp": { description: "HMAC credential: Unix seconds or milliseconds, within 5 minutes", required: false },
          "x-vapi-secret": {
            description: "Without an HMAC credential: VAPI_WEBHOOK_SECRET itself (or `Authorization: Bearer <secret>`)",
            required: false,
          },
        },
        body: rawBody(
          { name: "VapiServerMessage", schema: vapiMessageSchema },
          "The credential covers the raw bytes: lib/intake reads and maps the body itself (lib/intake/platforms/vapi.ts).",
        ),
        responses: webhookAnswer(
          "Stored: a call (end-of-call-report, one record per call id); any other message type is archived and " +
            "answered `Event ignored`. Also 200 while the database is down (docs/webhook.md).",
        ),
        errors: WEBHOOK_ERRORS,
      },
    },
  },

  retellWebhook: {
    path: "/api/voiceagent-webhook/retell",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.retellWebhook },
    methods: {
      POST: {
        operationId: "retellWebhook",
        permission: "public",
        summary: "Webhook event from Retell (call_ended and call_analyzed make one call)",
        headers: {
          "x-retell-signature": {
            description: '`v=<Unix ms>,d=<hex HMAC-SHA256 of "<raw body><Unix ms>">` keyed by RETELL_API_KEY, within 5 minutes',
            required: true,
          },
        },
        body: rawBody(
          { name: "RetellWebhookEvent", schema: retellEventSchema },
          "The signature covers the raw bytes: lib/intake reads and maps the body itself (lib/intake/platforms/retell.ts).",
        ),
        responses: webhookAnswer(
          "Stored: call_ended and call_analyzed of one call make one record with its analysis, in either order; any " +
            "other event is archived and answered `Event ignored`. Also 200 while the database is down (docs/webhook.md).",
        ),
        errors: WEBHOOK_ERRORS,
      },
    },
  },

  exercises: {
    path: "/api/exercises",
    errorFormat: "calls",
    protection: exerciseProtection,
    methods: {
      POST: {
        operationId: "createExercise",
        permission: "train",
        summary: "Plan a training exercise (and start it when asked)",
        description:
          "Its calls are planned at once, deterministic per seed, and released by the server's scheduler as they fall due " +
          "(docs/exercises.md). Exercise calls are simulated calls carrying the exercise id.",
        body: jsonBody({ name: "ExerciseRequest", schema: createExerciseSchema }, parseCreateExercise),
        responses: { 201: { description: "The exercise as planned (or started)", body: exerciseResponse } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
      GET: {
        operationId: "listExercises",
        permission: "read",
        summary: "The latest 50 exercises, newest first, with their progress",
        responses: { 200: { description: "Exercises", body: { name: "ExerciseList", schema: exerciseListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  exercise: {
    path: "/api/exercises/:id",
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      GET: {
        operationId: "getExercise",
        permission: "read",
        summary: "One exercise and its progress: released of planned, calls per minute, elapsed and remaining time",
        responses: { 200: { description: "The exercise", body: exerciseResponse } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  exerciseStart: exerciseControl("start", exerciseControls.start),
  exercisePause: exerciseControl("pause", exerciseControls.pause),
  exerciseResume: exerciseControl("resume", exerciseControls.resume),
  exerciseStop: exerciseControl("stop", exerciseControls.stop),

  exerciseDebrief: {
    path: "/api/exercises/:id/debrief",
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      GET: {
        operationId: "getExerciseDebrief",
        permission: "read",
        summary: "How the exercise went: dispatch times per severity, undispatched calls, queue, calls per minute against plan",
        responses: { 200: { description: "The debrief", body: { name: "ExerciseDebrief", schema: debriefSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  exerciseDebriefCsv: {
    path: "/api/exercises/:id/debrief.csv",
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      GET: {
        operationId: "getExerciseDebriefCsv",
        permission: "read",
        summary: "The debrief as CSV, one figure per line: metric, severity, minute, value",
        responses: { 200: { description: "The debrief", contentType: "text/csv", body: { schema: z.string() } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  // Reports (lib/reports, docs/reports.md): read from SQL, read-level.
  reportIntervals: {
    path: "/api/reports/intervals",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getDispatchIntervals",
        permission: "read",
        summary: "Dispatch intervals: seconds from a call's arrival to its first dispatch, p50/p90 and the share within 60 s, by type and severity",
        query: intervalsQueryParameters,
        responses: { 200: { description: "The report", body: { name: "DispatchIntervals", schema: intervalsReportSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  reportIntervalsCsv: {
    path: "/api/reports/intervals.csv",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getDispatchIntervalsCsv",
        permission: "read",
        summary: "The dispatch intervals report as CSV, one line per type and severity, per severity and overall",
        query: intervalsQueryParameters,
        responses: { 200: { description: "The report, as an attachment", contentType: "text/csv", body: { schema: z.string() } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  // Outbound webhooks (lib/subscriptions, docs/integrations.md): administrators only.
  subscriptions: {
    path: "/api/subscriptions",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      POST: {
        operationId: "createSubscription",
        permission: "admin",
        summary: "Subscribe a receiver to incident and call events (signed webhooks that follow the change feed)",
        description:
          "Events of changes from now on are POSTed to `url`, signed with the Standard Webhooks scheme; the signing " +
          "secret is in this answer only. A target that resolves to a private, loopback or link-local address is " +
          "refused (400) unless SUBSCRIPTION_ALLOW_PRIVATE_TARGETS is set.",
        body: jsonBody({ name: "SubscriptionRequest", schema: createSubscriptionSchema }, parseCreateSubscription),
        responses: { 201: { description: "The subscription, with its secret", body: { name: "SubscriptionWithSecret", schema: subscriptionWithSecretSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
      GET: {
        operationId: "listSubscriptions",
        permission: "admin",
        summary: "Every subscription with its delivery state, newest first",
        responses: { 200: { description: "Subscriptions", body: { name: "SubscriptionList", schema: subscriptionListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  subscription: {
    path: "/api/subscriptions/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: subscriptionParams,
    methods: {
      GET: {
        operationId: "getSubscription",
        permission: "admin",
        summary: "One subscription and its delivery state",
        responses: { 200: { description: "The subscription", body: { name: "Subscription", schema: subscriptionSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateSubscription",
        permission: "admin",
        summary: "Change a subscription, pause or resume it, or rotate its secret",
        description:
          "Pausing keeps its cursor: nothing is dropped. rotate_secret answers the new secret once; the previous one " +
          "keeps signing (a second signature) for 24 hours.",
        body: jsonBody({ name: "SubscriptionUpdate", schema: updateSubscriptionSchema }, parseUpdateSubscription),
        responses: {
          200: {
            description: "The subscription after the change (with `secret` when rotated)",
            body: { schema: z.union([subscriptionWithSecretSchema, subscriptionSchema]) },
          },
        },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
      DELETE: {
        operationId: "removeSubscription",
        permission: "admin",
        summary: "Remove a subscription and its delivery log",
        responses: { 200: { description: "The subscription as it was", body: { name: "Subscription", schema: subscriptionSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  subscriptionReplay: {
    path: "/api/subscriptions/:id/replay",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: subscriptionParams,
    methods: {
      POST: {
        operationId: "replaySubscription",
        permission: "admin",
        summary: "Send again every event of the changes after a change number, in order, with their webhook-ids",
        query: replayQueryParameters,
        responses: { 200: { description: "The subscription, its cursor moved", body: { name: "Subscription", schema: subscriptionSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  subscriptionDeliveries: {
    path: "/api/subscriptions/:id/deliveries",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: subscriptionParams,
    methods: {
      GET: {
        operationId: "listSubscriptionDeliveries",
        permission: "admin",
        summary: "The delivery log: each attempt's event, attempt number, status, latency and error, newest first",
        description: "Attempts are kept SUBSCRIPTION_DELIVERY_LOG_DAYS days (7 by default).",
        query: deliveriesQueryParameters,
        responses: { 200: { description: "One page of attempts", body: { name: "DeliveryPage", schema: deliveryPageSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  // Probed by load balancers and monitors, often from one address: not limited.
  health: {
    path: "/api/health",
    errorFormat: "calls",
    protection: {},
    methods: {
      GET: {
        operationId: "health",
        permission: "public",
        summary: "Readiness (database reachable and migrated, payload storage reachable), or liveness",
        description:
          "Answers from the latest run of the checks, which run at most every HEALTH_CHECK_INTERVAL_MS (5 s) " +
          "and write nothing. Each check's outcome only with the API key (Bearer or session cookie).",
        query: healthQueryParameters,
        responses: {
          200: { description: "Ready", body: { name: "HealthReport", schema: healthReportSchema } },
          503: {
            description: "Not ready; with the API key, the failing check carries an error code",
            body: { name: "HealthReport", schema: healthReportSchema },
          },
        },
        errors: ["INVALID_PARAMETER"],
      },
    },
  },

  openapi: {
    path: "/api/openapi.json",
    errorFormat: "calls",
    protection: {},
    methods: {
      GET: {
        operationId: "openapi",
        permission: "public",
        summary: "This document",
        description: "Built once per process; answers 304 to an If-None-Match naming its ETag.",
        responses: {
          200: { description: "OpenAPI 3.1 document", body: { schema: z.record(z.string(), z.unknown()) } },
          304: { description: "Unchanged since the ETag given in If-None-Match" },
        },
        errors: [],
      },
    },
  },

  // People, sign-in and keys (lib/access, docs/security.md).
  session: {
    path: "/api/session",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.session },
    methods: {
      POST: {
        operationId: "signIn",
        permission: "public",
        summary: "Sign in with email and password: the dashboard's session cookie",
        description:
          "200 with the person and an httpOnly, SameSite=Lax session cookie (Secure over HTTPS), valid 12 hours. " +
          "Attempts are limited per client address and per account (AUTH_LOCKOUT_ATTEMPTS per AUTH_LOCKOUT_SECONDS, " +
          "right or wrong); a locked account answers 429 TOO_MANY_ATTEMPTS until its window ends.",
        body: jsonBody({ name: "SignInRequest", schema: signInSchema }, parseSignIn, { maxBytes: 4096 }),
        responses: { 200: { description: "Signed in (Set-Cookie)", body: { name: "WhoAmI", schema: whoAmISchema } } },
        errors: ["INVALID_PARAMETER", "UNAUTHORIZED", "TOO_MANY_ATTEMPTS", "DATABASE_ERROR"],
      },
      DELETE: {
        operationId: "signOut",
        permission: "public",
        summary: "Sign out: the session ends on every instance and the cookie is cleared",
        responses: { 204: { description: "Signed out (Set-Cookie clears the cookie)" } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  sso: {
    path: "/api/session/sso",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.sso },
    methods: {
      GET: {
        operationId: "startSingleSignOn",
        permission: "public",
        summary: "Sign in with the centre's OpenID Connect provider (OIDC_ISSUER): a redirect to it",
        description:
          "302 to the provider's sign-in page, with the state cookie the callback checks. Only people an administrator " +
          "created may sign in this way (matched by email); 404 NOT_FOUND when no provider is configured.",
        query: ssoQueryParameters,
        responses: { 302: { description: "To the identity provider" } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "IDENTITY_PROVIDER_ERROR", "DATABASE_ERROR"],
      },
    },
  },

  ssoCallback: {
    path: "/api/auth/callback/:provider",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.sso },
    params: z.object({ provider: z.string().meta({ description: "The provider's id: oidc" }) }),
    methods: {
      GET: {
        operationId: "finishSingleSignOn",
        permission: "public",
        summary: "Where the identity provider sends the browser back: the session cookie and the page, or /login with the reason",
        responses: { 302: { description: "To the page asked for (signed in), or to /login?sso_error=1&error=<reason>" } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  me: {
    path: "/api/me",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "whoAmI",
        permission: "read",
        summary: "Who the request is from: the signed-in person (name, role, permissions) or the key",
        responses: { 200: { description: "The actor", body: { name: "WhoAmI", schema: whoAmISchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  setup: {
    path: "/api/setup",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.session },
    methods: {
      GET: {
        operationId: "getSetupState",
        permission: "public",
        summary: "Whether the first administrator is still to be created",
        responses: { 200: { description: "The state", body: { name: "SetupState", schema: setupStateSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createFirstAdministrator",
        permission: "public",
        summary: "Create the first administrator: only while nobody exists (then 409 CONFLICT)",
        body: jsonBody({ name: "FirstAdministrator", schema: newPersonSchema }, parseNewPerson, { maxBytes: 4096 }),
        responses: { 201: { description: "The administrator (sign in next)", body: { name: "User", schema: userSchema } } },
        errors: ["INVALID_PARAMETER", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  users: {
    path: "/api/users",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listUsers",
        permission: "admin",
        summary: "Everyone who may sign in, with their role",
        responses: { 200: { description: "People, by name", body: { name: "UserList", schema: userListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createUser",
        permission: "admin",
        summary: "Create a person with a role and a first password",
        body: jsonBody({ name: "CreateUser", schema: createUserSchema }, parseCreateUser, { maxBytes: 4096 }),
        responses: { 201: { description: "The person", body: { name: "User", schema: userSchema } } },
        errors: ["INVALID_PARAMETER", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  user: {
    path: "/api/users/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: z.object({ id: z.string().meta({ description: "The person's id" }) }),
    methods: {
      PATCH: {
        operationId: "updateUser",
        permission: "admin",
        summary: "Change a person's role (applies on their next request, on every instance)",
        body: jsonBody({ name: "UpdateUser", schema: updateUserSchema }, parseUpdateUser, { maxBytes: 4096 }),
        responses: { 200: { description: "The person after the change", body: { name: "User", schema: userSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "CONFLICT", "DATABASE_ERROR"],
      },
      DELETE: {
        operationId: "removeUser",
        permission: "admin",
        summary: "Remove a person: their sessions end at once; their name stays in the history and audit trail",
        responses: { 204: { description: "Removed" } },
        errors: ["NOT_FOUND", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  gisLayers: {
    path: "/api/gis",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listGisLayers",
        permission: "admin",
        summary: "The centre's GIS layers: feature counts, source file, when imported",
        responses: { 200: { description: "Layers imported so far", body: { name: "GisLayerList", schema: gisLayerListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "importGisLayer",
        permission: "admin",
        summary: "Replace one layer of the centre's GIS data (address points or centrelines) with a file",
        description:
          "The layer is replaced whole, in one transaction, once every feature has been read and checked; a bad feature " +
          "answers 400 naming its line (CSV) or feature (GeoJSON, from 0) and field, and the previous data stays " +
          '(docs/geocoding.md, "The centre\'s GIS data"). At most GIS_IMPORT_MAX_BYTES (512 MiB unless configured).',
        query: gisImportQueryParameters,
        body: rawBody({ name: "GisFile", schema: gisImportBodySchema }, "Streamed: lib/geocoding/centre reads the features as they arrive."),
        responses: { 200: { description: "The layer now holds this file's features", body: { name: "GisImportResult", schema: gisImportResultSchema } } },
        errors: ["INVALID_PARAMETER", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "DATABASE_ERROR"],
      },
    },
  },

  keys: {
    path: "/api/keys",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listKeys",
        permission: "admin",
        summary: "API keys for integrations, newest first (never the keys themselves)",
        responses: { 200: { description: "Keys", body: { name: "ApiKeyList", schema: apiKeyListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createKey",
        permission: "admin",
        summary: "Create a scoped API key, shown once",
        description: "Scopes are permissions (read, dispatch, train, admin); the key is sent as `Authorization: Bearer <key>`.",
        body: jsonBody({ name: "CreateKey", schema: createKeySchema }, parseCreateKey, { maxBytes: 4096 }),
        responses: { 201: { description: "The key, with the secret this once", body: { name: "CreatedApiKey", schema: createdApiKeySchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  key: {
    path: "/api/keys/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: z.object({ id: z.string().meta({ description: "The key's id" }) }),
    methods: {
      DELETE: {
        operationId: "revokeKey",
        permission: "admin",
        summary: "Revoke a key: refused from the next request on, on every instance",
        responses: { 200: { description: "The key, revoked", body: { name: "ApiKey", schema: apiKeySchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  audit: {
    path: "/api/audit",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listAuditEvents",
        permission: "admin",
        summary: "The audit trail: who changed or read what, newest first, keyset-paginated",
        query: auditQueryParameters,
        responses: { 200: { description: "One page of events", body: { name: "AuditPage", schema: auditPageSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;

export type RouteName = keyof typeof endpoints;

/** Methods declared for the endpoint. */
export function declaredMethods(endpoint: Endpoint): Method[] {
  return Object.keys(endpoint.methods) as Method[];
}

/** Methods a client may use on the endpoint, as in an `Allow` header. */
export function allowedMethods(endpoint: Endpoint): string[] {
  const methods = new Set<string>([...declaredMethods(endpoint), "OPTIONS"]);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/**
 * Each endpoint with its path as a pattern, compiled once rather than on every /api request.
 * Fixed paths first, as Next routes them: /api/calls/export.csv is not the call `export.csv`.
 */
const pathPatterns = (Object.values(endpoints) as Endpoint[])
  .map((endpoint) => ({
    endpoint,
    parameters: endpoint.path.split(":").length - 1,
    pattern: new RegExp(`^${endpoint.path.replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+")}$`),
  }))
  .sort((a, b) => a.parameters - b.parameters);

/** The endpoint a path belongs to, if it is one of the table's. */
export function endpointForPath(pathname: string): Endpoint | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return pathPatterns.find(({ pattern }) => pattern.test(path))?.endpoint;
}
