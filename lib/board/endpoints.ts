import { z } from "zod";
import { callFilterParameters } from "../calls/schema";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  acknowledgeAlertsRequestSchema, acknowledgedAlertsSchema, parseAcknowledgeAlertsRequest,
  ALERTS_LISTED, alertsQueryParameters, alertsSchema, boardSchema, changePageSchema, changesQueryParameters, exerciseVisibilityParameters, hourlySeriesSchema, incidentMapViewSchema,
  incidentQueuePageSchema, incidentQueueQueryParameters, mapQueryParameters, mapViewSchema, queuePageSchema,
  queueQueryParameters, streamQueryParameters,
} from "./schema";

/**
 * The live picture's endpoints (docs/dashboard.md): the change feed and its stream, the board, the queues and the maps,
 * the alerts and their acknowledgement by kind.
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const boardEndpoints = {
  changes: {
    path: "/api/calls/changes",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listCallChanges",
        permission: "read",
        summary: "The change feed: calls changed, incident notes kept and units changed after a change number, in change order",
        description:
          "Every insert and update of a call takes the next change number; each call appears once, at its latest " +
          "change. An incident's note takes a number of the same sequence when it is kept (or moved by a merge), and a unit whenever it changes " +
          "(roster, state, position; each unit once, at its latest change). Gapless: a change committed later never has a number below one already served. The polling " +
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
          "Events `change` with `id` = change number and `data` = one entry of ChangePage's changes (a call, a note or a unit). Replays every " +
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
        summary: "What must not be missed: open critical and high incidents with unacknowledged new calls, and incidents waiting undispatched past their threshold",
        description:
          "Read from every open incident, however far down the queue it ranks; the dashboard reads it again when the change feed moves " +
          `(acknowledgements included) and on a timer for reminders. At most ${ALERTS_LISTED} of each kind are listed, \`total\` counts them all.`,
        query: alertsQueryParameters,
        responses: { 200: { description: "The alerts", body: { name: "Alerts", schema: alertsSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  liveAlertsAcknowledge: {
    path: "/api/live/alerts/acknowledge",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      POST: {
        operationId: "acknowledgeAlerts",
        permission: ["dispatch", "train"],
        summary: "Acknowledge every alert of one kind at once: real incidents', or training ones'",
        description:
          "The incidents alerting now (new calls and reminders, as GET /api/live/alerts reads them, `exercise` the one shown), each " +
          "acknowledged as by POST /api/incidents/{id}/acknowledge: audited, in the change feed. A trainer may acknowledge training " +
          "alerts only (403).",
        body: jsonBody({ name: "AcknowledgeAlertsRequest", schema: acknowledgeAlertsRequestSchema }, parseAcknowledgeAlertsRequest),
        responses: { 200: { description: "How many incidents' alerts were acknowledged", body: { name: "AcknowledgedAlerts", schema: acknowledgedAlertsSchema } } },
        errors: ["INVALID_PARAMETER", "FORBIDDEN", "DATABASE_ERROR"],
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
} satisfies Record<string, Endpoint>;
