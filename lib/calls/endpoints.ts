import { z } from "zod";
import { documentedWriteAnswer, WITHOUT_READ } from "../access/write-answer";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  callDetailSchema, callFilterParameters, callListSchema, callUpdatedSchema, callUpdateSchema, listQueryParameters,
  parseCallUpdate,
} from "./schema";
import { parseTakenCall, takenCallSchema } from "./taken-schema";

const callWriteAnswer = documentedWriteAnswer("CallUpdated", callUpdatedSchema);
const takenCallAnswer = documentedWriteAnswer("CallDetail", callDetailSchema);

/**
 * The calls' endpoints (docs/calls.md): the listing, its CSV export, one call and its PATCH, its recording.
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const callEndpoints = {
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
      POST: {
        operationId: "takeCall",
        permission: ["dispatch", "train"],
        summary: "A call a person took: a call-taker's form, a radio report, an incident a unit came upon",
        description:
          "Stored as every call (platform `call_taker`, `agent_id` the person or key, who is named in its history), audited " +
          "(`call.taken`), announced (the change feed, the `call.created` event, the EIDO with the person as agent). The location " +
          "is a candidate chosen among GET /api/locations' (`candidate_id`) or the words geocoded as every call's; a place no " +
          "geocoder knows is stored without a point. The call joins the open incident the person chose (`incident_id`), else the " +
          "grouping rule places it. A unit's own report (`unit_id`) opens an incident of its own with the unit assigned and on scene, " +
          "at the unit's position when no location is given. A trainer takes training calls only (an `exercise_id`, or a training incident's id). " +
          "A save retried with the same `conversation_id` answers 200 with the call stored. Any refusal writes nothing.",
        body: jsonBody({ name: "TakenCall", schema: takenCallSchema }, parseTakenCall),
        responses: {
          201: { description: `The call as stored${WITHOUT_READ}`, body: takenCallAnswer },
          200: { description: `A retried save: the call stored by the first${WITHOUT_READ}`, body: takenCallAnswer },
        },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "CONFLICT", "TRAINING_MIX", "UNIT_UNAVAILABLE", "GEOCODING_ERROR", "DATABASE_ERROR"],
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
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "PRECISION_LOWERED", "STREET_NOT_IN_GIS", "GEOCODING_ERROR", "DATABASE_ERROR"],
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
} satisfies Record<string, Endpoint>;
