import { z } from "zod";
import { documentedWriteAnswer, WITHOUT_READ } from "../access/write-answer";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  dismissDuplicateRequestSchema, dismissedDuplicateSchema, mergeCandidatesQueryParameters, mergeCandidatesSchema, incidentDetailSchema, incidentListQueryParameters, incidentListSchema,
  incidentPatchSchema, mergeRequestSchema, parseDismissDuplicateRequest, parseIncidentPatch, parseMergeRequest, parseSplitRequest,
  parseUndoStatusRequest, splitRequestSchema, undoStatusRequestSchema,
} from "./schema";

const incidentWriteAnswer = documentedWriteAnswer("IncidentDetail", incidentDetailSchema);

/**
 * The incidents' endpoints (docs/incidents.md): the list, one incident and its PATCH, merge, split,
 * and the dismissal of a possible duplicate.
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const incidentEndpoints = {
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
          "corrections); the incident takes the type and its severity follows its calls; no call leaves it. " +
          "A move to dispatched or enroute with no unit on the incident needs dispatch_reason (409 DISPATCH_WITHOUT_UNIT otherwise); " +
          "a move to resolved or failed needs a disposition (400 otherwise). The move's id is the answer's status_change.id: its maker may " +
          "undo it (POST /api/incidents/{id}/undo-status).",
        body: jsonBody({ name: "IncidentUpdate", schema: incidentPatchSchema }, parseIncidentPatch),
        responses: { 200: { description: `The incident after the change${WITHOUT_READ}`, body: incidentWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "DISPATCH_WITHOUT_UNIT", "FORBIDDEN", "DATABASE_ERROR"],
      },
    },
  },

  incidentUndoStatus: {
    path: "/api/incidents/:id/undo-status",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident whose status move is undone" }) }),
    methods: {
      POST: {
        operationId: "undoIncidentStatus",
        permission: ["dispatch", "train"],
        summary: "Revert exactly one status move of the incident: its latest, made by the asker within 60 s, nothing else changed since",
        description:
          "The incident and each call the move moved take their previous status back (a history row each), its dispatch time too. " +
          "Refused with 409 UNDO_REFUSED, saying why, when the move is not the incident's latest, is another's, is older than 60 s, " +
          "is an undo itself, or when a unit was sent or cleared or a call moved since; nothing changes then.",
        body: jsonBody({ name: "UndoStatusRequest", schema: undoStatusRequestSchema }, parseUndoStatusRequest),
        responses: { 200: { description: `The incident after the undo${WITHOUT_READ}`, body: incidentWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "UNDO_REFUSED", "FORBIDDEN", "DATABASE_ERROR"],
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

  incidentMergeCandidates: {
    path: "/api/incidents/:id/merge-candidates",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident that would receive the calls" }) }),
    methods: {
      GET: {
        operationId: "listMergeCandidates",
        permission: "read",
        summary: "Open incidents that may be merged into this one, nearest first, with a search",
        description:
          "Every open incident of its kind (training or real), however far down the queue, whose location text or type contains q; " +
          "nearest this incident's point first.",
        query: mergeCandidatesQueryParameters,
        responses: { 200: { description: "The candidates", body: { name: "MergeCandidates", schema: mergeCandidatesSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  incidentDismissDuplicate: {
    path: "/api/incidents/:id/dismiss-duplicate",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "One of the two incidents marked as possible duplicates" }) }),
    methods: {
      POST: {
        operationId: "dismissPossibleDuplicate",
        permission: "dispatch",
        summary: "Say that other_id, marked as a possible duplicate of this incident, is another emergency",
        description:
          "The mark stays, dismissed, and grouping never marks the pair again; both incidents stop showing it. " +
          "To say they are one emergency, merge them (POST /api/incidents/{id}/merge). 404 when the pair is not marked.",
        body: jsonBody({ name: "DismissDuplicateRequest", schema: dismissDuplicateRequestSchema }, parseDismissDuplicateRequest),
        responses: { 200: { description: `The dismissed mark${WITHOUT_READ}`, body: documentedWriteAnswer("DismissedDuplicate", dismissedDuplicateSchema) } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
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
} satisfies Record<string, Endpoint>;
