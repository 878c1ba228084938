import { z } from "zod";
import { parseSessionRequest, sessionRequestSchema } from "../access/session";
import { callDetailSchema, callFilterParameters, callListSchema, listQueryParameters, parseStatusUpdate, statusUpdateSchema } from "../calls/schema";
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
import {
  boardSchema, changePageSchema, changesQueryParameters, exerciseVisibilityParameters, hourlySeriesSchema,
  incidentMapViewSchema, incidentQueuePageSchema, incidentQueueQueryParameters, mapQueryParameters, mapViewSchema,
  queuePageSchema, queueQueryParameters, streamQueryParameters,
} from "../live/schema";
import type { RateLimitPolicy } from "../rate-limit";
import { parseSimulateRequest, simulateRequestSchema } from "../simulation/request";
import { simulationResultSchema } from "../simulation/result";
import { webhookAnswerSchema, webhookEventSchema } from "../webhook/payload";
import { type Endpoint, jsonBody, type Method, rawBody } from "./endpoint";

/**
 * Every API endpoint's contract, one entry each: path, protection, and per method the request
 * schemas, answers and error codes. apiRoute validates from it, proxy.ts answers 405 from it and
 * lib/openapi.ts generates the OpenAPI document from it. How to add one: docs/endpoints.md.
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
  // The only place a key can be guessed without a valid one: few tries per client.
  session: { bucket: "session", limit: 10, windowMs: MINUTE, whenStoreDown: "local" },
  // Trainers' controls and the dashboard's progress polling (every few seconds per open dashboard).
  exercises: { bucket: "exercises", limit: 300, windowMs: MINUTE, whenStoreDown: "local" },
} satisfies Record<string, RateLimitPolicy>;

const exerciseProtection = { apiKey: true, rateLimit: rateLimitPolicies.exercises } as const;
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listCalls",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "exportCalls",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listCallChanges",
        summary: "The change feed: calls changed after a change number, in change order",
        description:
          "Every insert and update of a call takes the next change number; each call appears once, at its latest " +
          "change. Gapless: a change committed later never has a number below one already served. The polling " +
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "streamCallChanges",
        summary: "The change feed pushed as server-sent events",
        description:
          "Events `change` with `id` = change number and `data` = a CallChange (as in ChangePage). Replays every " +
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getBoard",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getQueue",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getMapView",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getIncidentQueue",
        summary: "Open incidents in urgency order (severity, then longest waiting), each with its latest call, keyset-paginated",
        query: { ...incidentQueueQueryParameters, ...exerciseVisibilityParameters },
        responses: {
          200: { description: "One page of the incident queue", body: { name: "IncidentQueuePage", schema: incidentQueuePageSchema } },
        },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  incidentMap: {
    path: "/api/live/incident-map",
    errorFormat: "calls",
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getIncidentMapView",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getHourlySeries",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    params: z.object({
      id: z.string().meta({ description: "The call's conversation_id (a simulated call's call_id), URL-encoded." }),
    }),
    methods: {
      GET: {
        operationId: "getCall",
        summary: "One call with its status history",
        responses: { 200: { description: "The call", body: { name: "CallDetail", schema: callDetailSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateCallStatus",
        summary: "Move a call along its status workflow",
        description:
          "Forward along active, dispatched, enroute, resolved (skipping allowed); any non-final status to failed. " +
          "resolved and failed are final. Setting the current status again changes nothing.",
        body: jsonBody({ name: "StatusUpdate", schema: statusUpdateSchema }, parseStatusUpdate),
        responses: { 200: { description: "The call after the change", body: { name: "CallDetail", schema: callDetailSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "DATABASE_ERROR"],
      },
    },
  },

  recording: {
    path: "/api/calls/:id/recording",
    errorFormat: "calls",
    // An <audio> element fetches a recording in a few range requests: the calls budget.
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    params: z.object({
      id: z.string().meta({ description: "The call's conversation_id, URL-encoded." }),
    }),
    methods: {
      GET: {
        operationId: "getCallRecording",
        summary: "The call's recording (from a post_call_audio event) as audio/mpeg",
        description:
          "Streamed from object storage. `Range: bytes=a-b`, `bytes=a-` and `bytes=-n` answer 206 with Content-Range; " +
          "several ranges or other units answer the whole recording.",
        headers: { range: { description: "`bytes=a-b`, `bytes=a-` or `bytes=-n`", required: false } },
        responses: {
          200: { description: "The whole recording", contentType: "audio/mpeg", body: { schema: z.string().meta({ format: "binary" }) } },
          206: { description: "The range asked for", contentType: "audio/mpeg", body: { schema: z.string().meta({ format: "binary" }) } },
        },
        errors: ["NOT_FOUND", "RANGE_NOT_SATISFIABLE", "DATABASE_ERROR"],
      },
    },
  },

  // Incidents (lib/incidents, docs/incidents.md): calls about one emergency, grouped when stored.
  incidents: {
    path: "/api/incidents",
    errorFormat: "calls",
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listIncidents",
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
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "getIncident",
        summary: "One incident with all of its calls, oldest first",
        responses: { 200: { description: "The incident", body: { name: "IncidentDetail", schema: incidentDetailSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateIncidentStatus",
        summary: "Move an incident along the calls' status workflow, and its open calls with it",
        description:
          "The incident follows the calls' workflow. Each of its calls that may make the same move makes it, recorded " +
          "in the call's history (changed by `api:incident`); a call already further along keeps its status.",
        body: jsonBody({ name: "StatusUpdate", schema: statusUpdateSchema }, parseStatusUpdate),
        responses: { 200: { description: "The incident after the change", body: { name: "IncidentDetail", schema: incidentDetailSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "DATABASE_ERROR"],
      },
    },
  },

  incidentMerge: {
    path: "/api/incidents/:id/merge",
    errorFormat: "calls",
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident that receives the calls" }) }),
    methods: {
      POST: {
        operationId: "mergeIncidents",
        summary: "Move every call of other_id into this incident; other_id ceases to exist",
        body: jsonBody({ name: "MergeRequest", schema: mergeRequestSchema }, parseMergeRequest),
        responses: { 200: { description: "The merged incident", body: { name: "IncidentDetail", schema: incidentDetailSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  incidentSplit: {
    path: "/api/incidents/:id/split",
    errorFormat: "calls",
    protection: { apiKey: true, rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident the call leaves" }) }),
    methods: {
      POST: {
        operationId: "splitIncident",
        summary: "Move one call out of this incident into a new incident of its own",
        body: jsonBody({ name: "SplitRequest", schema: splitRequestSchema }, parseSplitRequest),
        responses: { 200: { description: "The new incident", body: { name: "IncidentDetail", schema: incidentDetailSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  simulate: {
    path: "/api/simulate",
    errorFormat: "simulation",
    protection: { apiKey: true, rateLimit: rateLimitPolicies.simulate },
    methods: {
      POST: {
        operationId: "simulate",
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
    protection: { apiKey: false, rateLimit: rateLimitPolicies.webhook },
    methods: {
      POST: {
        operationId: "voiceAgentWebhook",
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
        responses: {
          200: {
            description:
              "Stored: a call (post_call_transcription), a failed call (call_initiation_failure), a recording " +
              "(post_call_audio); any other type is archived and answered `Event ignored`. A 5xx is never for the content. " +
              "Also 200 while the database is down: the archived payload is recorded once it is back (docs/webhook.md).",
            body: { name: "WebhookResponse", schema: webhookAnswerSchema },
          },
        },
        errors: [
          "UNSUPPORTED_MEDIA_TYPE",
          "PAYLOAD_TOO_LARGE",
          "INVALID_JSON",
          "MISSING_FIELDS",
          "INVALID_SIGNATURE",
          "STORAGE_ERROR",
          "GEOCODING_ERROR",
        ],
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
        summary: "The debrief as CSV, one figure per line: metric, severity, minute, value",
        responses: { 200: { description: "The debrief", contentType: "text/csv", body: { schema: z.string() } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  // Probed by load balancers and monitors, often from one address: not limited.
  health: {
    path: "/api/health",
    errorFormat: "calls",
    protection: { apiKey: false },
    methods: {
      GET: {
        operationId: "health",
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
    protection: { apiKey: false },
    methods: {
      GET: {
        operationId: "openapi",
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

  session: {
    path: "/api/session",
    errorFormat: "calls",
    protection: { apiKey: false, rateLimit: rateLimitPolicies.session },
    methods: {
      POST: {
        operationId: "openSession",
        summary: "Exchange the API key for the dashboard's session cookie",
        description: "204 with an httpOnly, SameSite=Strict cookie (none when the server sets no API_KEY).",
        body: jsonBody({ name: "SessionRequest", schema: sessionRequestSchema }, parseSessionRequest, { maxBytes: 4096 }),
        responses: { 204: { description: "Signed in (Set-Cookie)" } },
        errors: ["INVALID_PARAMETER", "UNAUTHORIZED"],
      },
      DELETE: {
        operationId: "closeSession",
        summary: "Forget the session cookie (sign out)",
        responses: { 204: { description: "Signed out (Set-Cookie clears the cookie)" } },
        errors: [],
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
