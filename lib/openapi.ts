import { z } from "zod";
import { listQueryParameters, callDetailSchema, callListSchema, statusUpdateSchema } from "./calls/schema";
import { healthReportSchema } from "./health";
import { errorBodySchemas } from "./http/error-schemas";
import { simulationResultSchema } from "./simulation";
import { simulateRequestSchema } from "./simulation/request";
import { callEventSchema, webhookAnswerSchema } from "./webhook/payload";

/**
 * GET /api/openapi.json: an OpenAPI 3.1 document generated from the zod schemas that validate the
 * requests and type the responses, so it cannot drift from the code.
 */

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what a request sends or a response carries. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // The document declares the dialect once (OpenAPI 3.1's default is 2020-12).
  const generated: JsonSchema = z.toJSONSchema(schema, { io, unrepresentable: "throw" });
  delete generated.$schema;
  return generated;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });
const response = (description: string, schemaName: string) => ({ description, content: jsonContent(ref(schemaName)) });

const schemas = {
  CallList: jsonSchema(callListSchema, "output"),
  CallDetail: jsonSchema(callDetailSchema, "output"),
  StatusUpdate: jsonSchema(statusUpdateSchema, "input"),
  SimulateRequest: jsonSchema(simulateRequestSchema, "input"),
  SimulateResponse: jsonSchema(simulationResultSchema, "output"),
  WebhookEvent: jsonSchema(callEventSchema, "input"),
  WebhookResponse: jsonSchema(webhookAnswerSchema, "output"),
  HealthReport: jsonSchema(healthReportSchema, "output"),
  CallsError: jsonSchema(errorBodySchemas.calls, "output"),
  SimulationError: jsonSchema(errorBodySchemas.simulation, "output"),
  WebhookError: jsonSchema(errorBodySchemas.webhook, "output"),
};

type SchemaName = keyof typeof schemas;

function errors(schemaName: SchemaName, cases: Record<number, string>) {
  return Object.fromEntries(Object.entries(cases).map(([status, description]) => [status, response(description, schemaName)]));
}

const bearerOptional = [{}, { apiKey: [] }];

/** Answers every /api/calls operation can give besides its own. */
const callsCommonErrors = {
  401: "Missing or wrong API key when API_KEY is set (UNAUTHORIZED)",
  429: "Rate limit exceeded (RATE_LIMITED)",
  500: "Call store failure (DATABASE_ERROR)",
};

export function buildOpenApiDocument(): Record<string, unknown> {
  const listParameters = Object.entries(listQueryParameters).map(([name, parameter]) => ({
    name,
    in: "query",
    required: false,
    description: parameter.description,
    schema: jsonSchema(parameter.schema, "output"),
  }));
  const idParameter = {
    name: "id",
    in: "path",
    required: true,
    description: "The call's conversation_id (a simulated call's call_id), URL-encoded.",
    schema: { type: "string" },
  };

  return {
    openapi: "3.1.0",
    info: {
      title: "Mayday emergency-call service",
      version: "1.0.0",
      description:
        "Disaster-call simulation, call listing and status workflow, and voice-agent webhook intake.",
    },
    paths: {
      "/api/calls": {
        get: {
          operationId: "listCalls",
          summary: "List stored calls, newest first, filtered and paginated",
          security: bearerOptional,
          parameters: listParameters,
          responses: {
            200: response("One page of matching calls", "CallList"),
            ...errors("CallsError", {
              ...callsCommonErrors,
              400: "Invalid parameter (INVALID_PARAMETER)",
            }),
          },
        },
      },
      "/api/calls/{id}": {
        parameters: [idParameter],
        get: {
          operationId: "getCall",
          summary: "One call with its status history",
          security: bearerOptional,
          responses: {
            200: response("The call", "CallDetail"),
            ...errors("CallsError", {
              ...callsCommonErrors,
              404: "No such call (NOT_FOUND)",
            }),
          },
        },
        patch: {
          operationId: "updateCallStatus",
          summary: "Move a call along its status workflow",
          description:
            "Forward along active, dispatched, enroute, resolved (skipping allowed); any non-final status to failed. " +
            "resolved and failed are final. Setting the current status again changes nothing.",
          security: bearerOptional,
          requestBody: { required: true, content: jsonContent(ref("StatusUpdate")) },
          responses: {
            200: response("The call after the change", "CallDetail"),
            ...errors("CallsError", {
              ...callsCommonErrors,
              400: "Unknown status (INVALID_PARAMETER) or malformed JSON (INVALID_JSON)",
              404: "No such call (NOT_FOUND)",
              409: "Transition not allowed (INVALID_TRANSITION)",
              415: "Content-Type is not application/json",
            }),
          },
        },
      },
      "/api/simulate": {
        post: {
          operationId: "simulate",
          summary: "Generate synthetic emergency calls for a disaster scenario",
          security: bearerOptional,
          requestBody: { required: true, content: jsonContent(ref("SimulateRequest")) },
          responses: {
            200: response("The request was processed", "SimulateResponse"),
            ...errors("SimulationError", {
              400: "Unknown scenario, invalid num_calls or table_name, malformed JSON",
              401: "Missing or wrong API key when API_KEY is set (UNAUTHORIZED)",
              415: "Content-Type is not application/json",
              429: "Rate limit exceeded (RATE_LIMITED)",
              500: "Call store failure",
            }),
          },
        },
      },
      "/api/voiceagent-webhook": {
        post: {
          operationId: "voiceAgentWebhook",
          summary: "Post-call event from the voice-agent platform",
          parameters: [
            {
              name: "voiceagent-signature",
              in: "header",
              required: false,
              description: "`t=<unix seconds>,v0=<hex HMAC-SHA256 of \"<t>.<raw body>\">`",
              schema: { type: "string" },
            },
          ],
          requestBody: { required: true, content: jsonContent(ref("WebhookEvent")) },
          responses: {
            200: response("Received (or ignored when the type is not post_call_transcription)", "WebhookResponse"),
            ...errors("WebhookError", {
              400: "Malformed JSON (INVALID_JSON) or missing fields (MISSING_FIELDS)",
              401: "Signature verification failed (INVALID_SIGNATURE)",
              413: "Body over 5 MB (PAYLOAD_TOO_LARGE)",
              415: "Content-Type is not application/json",
              429: "Rate limit exceeded (RATE_LIMITED)",
              500: "Storage, database or geocoding failure",
            }),
          },
        },
      },
      "/api/health": {
        get: {
          operationId: "health",
          summary:
            "Readiness: database reachable and migrated, payload storage reachable; checked at most every HEALTH_CHECK_INTERVAL_MS, details only with the API key",
          responses: {
            200: response("Ready", "HealthReport"),
            503: response("Not ready; with the API key, the failing check carries an error code", "HealthReport"),
          },
        },
      },
      "/api/openapi.json": {
        get: {
          operationId: "openapi",
          summary: "This document",
          responses: { 200: { description: "OpenAPI 3.1 document", content: jsonContent({ type: "object" }) } },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "Required when the server sets API_KEY" },
      },
    },
  };
}
