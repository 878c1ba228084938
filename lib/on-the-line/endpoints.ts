import { z } from "zod";
import { documentedWriteAnswer } from "../access/write-answer";
import { type Endpoint, jsonBody, rawBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { elevenLabsToolSchema } from "../voice-platforms/elevenlabs/tool-schema";
import { retellFunctionSchema } from "../voice-platforms/retell/schema";
import { vapiToolAnswerSchema, vapiToolCallsSchema } from "../voice-platforms/vapi/schema";
import {
  INSTRUCTION_MAX_CHARACTERS, instructionRequestSchema, instructionSchema, liveStatusSchema, liveToolParams, liveToolsSchema,
  parseInstructionRequest, parseTransferRequest, transferRequestSchema, transferSchema,
} from "./schema";

const callIdParams = z.object({ id: z.string().meta({ description: "The call's conversation_id, URL-encoded." }) });

/**
 * The agent's tools while the caller is on the line, and a dispatcher's instruction for the agent
 * (docs/webhook.md, "Live calls"). Composed into the one registry by lib/http/endpoints.ts.
 */
export const onTheLineEndpoints = {
  liveToolsVapi: {
    path: "/api/live-calls/vapi",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.liveTools },
    methods: {
      POST: {
        operationId: "liveToolsVapi",
        permission: "public",
        summary: "Vapi tool-calls: report_emergency and incident_status while the call is in progress",
        headers: {
          "x-signature": { description: "The Vapi credential of POST /api/voiceagent-webhook/vapi (HMAC, VAPI_WEBHOOK_SECRET)", required: false },
          "x-timestamp": { description: "HMAC credential: Unix seconds or milliseconds, within 5 minutes", required: false },
          "x-vapi-secret": { description: "Without an HMAC credential: VAPI_WEBHOOK_SECRET itself (or `Authorization: Bearer <secret>`)", required: false },
        },
        body: rawBody(
          { name: "VapiToolCalls", schema: vapiToolCallsSchema },
          "The credential covers the raw bytes: lib/on-the-line reads the body itself (lib/on-the-line/answer-tools.ts).",
        ),
        responses: {
          200: {
            description:
              "One result per tool call, in order: the LiveStatus as one line of JSON, or an `error` for a tool Mayday does not " +
              "have or one it could not run (the database down: Vapi ignores any status but 200)",
            body: { name: "VapiToolResults", schema: vapiToolAnswerSchema },
          },
        },
        errors: ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON", "MISSING_FIELDS", "INVALID_SIGNATURE"],
      },
    },
  },

  liveToolsRetell: {
    path: "/api/live-calls/retell",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.liveTools },
    methods: {
      POST: {
        operationId: "liveToolsRetell",
        permission: "public",
        summary: "Retell custom function: report_emergency or incident_status while the call is in progress",
        headers: {
          "x-retell-signature": {
            description: '`v=<Unix ms>,d=<hex HMAC-SHA256 of "<raw body><Unix ms>">` keyed by RETELL_API_KEY, within 5 minutes',
            required: true,
          },
        },
        body: rawBody(
          { name: "RetellCustomFunction", schema: retellFunctionSchema },
          "The signature covers the raw bytes: lib/on-the-line reads the body itself (lib/on-the-line/answer-tools.ts).",
        ),
        responses: { 200: { description: "What the agent may tell the caller", body: { name: "LiveStatus", schema: liveStatusSchema } } },
        errors: ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON", "MISSING_FIELDS", "INVALID_SIGNATURE", "DATABASE_ERROR"],
      },
    },
  },

  liveToolsElevenLabs: {
    path: "/api/live-calls/elevenlabs/:tool",
    errorFormat: "webhook",
    protection: { rateLimit: rateLimitPolicies.liveTools },
    params: liveToolParams,
    methods: {
      POST: {
        operationId: "liveToolsElevenLabs",
        permission: "public",
        summary: "ElevenLabs server tool: report_emergency or incident_status while the call is in progress (one URL per tool)",
        headers: {
          "x-mayday-tool-secret": { description: "ELEVENLABS_TOOL_SECRET, sent by the tool as a workspace secret", required: true },
        },
        body: rawBody(
          { name: "ElevenLabsToolRequest", schema: elevenLabsToolSchema },
          "Read by lib/voice-platforms/elevenlabs/tools.ts once the secret checked out.",
        ),
        responses: { 200: { description: "What the agent may tell the caller", body: { name: "LiveStatus", schema: liveStatusSchema } } },
        errors: ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON", "MISSING_FIELDS", "INVALID_PARAMETER", "INVALID_SIGNATURE", "DATABASE_ERROR"],
      },
    },
  },

  liveToolDefinitions: {
    path: "/api/live-calls/tools",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.liveTools },
    methods: {
      GET: {
        operationId: "getLiveToolDefinitions",
        permission: "public",
        summary: "Mayday's live tools as function definitions (name, description, JSON Schema parameters) to paste into the agent",
        responses: { 200: { description: "The tools", body: { name: "LiveToolDefinitions", schema: liveToolsSchema } } },
        errors: [],
      },
    },
  },

  callInstruction: {
    path: "/api/calls/:id/instruction",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: callIdParams,
    methods: {
      POST: {
        operationId: "instructAgent",
        permission: ["dispatch", "train"],
        summary: "Write an instruction for the voice agent on a live call: pushed through the platform's live control, and the agent's next incident_status answers it (audited)",
        description:
          `Text: 1 to ${INSTRUCTION_MAX_CHARACTERS} characters. Instructions are kept in order, their text never changed; the latest is ` +
          "the one the agent gets. While the call is on the line it is also pushed through the platform's live control (Vapi " +
          "add-message on the call's control URL, Retell update-live-call); `delivery` says whether it was pushed, waits for the " +
          "agent's incident_status (ElevenLabs; no control URL; no RETELL_API_KEY; not on the line) or failed and why. A platform " +
          "that fails never fails the request. A trainer may instruct on training calls only.",
        body: jsonBody({ name: "InstructionRequest", schema: instructionRequestSchema }, parseInstructionRequest),
        responses: { 201: { description: "The instruction as kept (to a caller without `read`: its id and what changed)", body: documentedWriteAnswer("Instruction", instructionSchema) } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  callTransfer: {
    path: "/api/calls/:id/transfer",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: callIdParams,
    methods: {
      POST: {
        operationId: "transferCaller",
        permission: ["dispatch", "train"],
        summary: "Ask the platform to transfer the caller of a live call to a human number (Vapi live control; audited)",
        description:
          "Vapi only: a `transfer` through the call's control URL. Retell and ElevenLabs offer no way to ask for a transfer " +
          "from outside the call (409 TRANSFER_NOT_SUPPORTED); a call not on the line: 409 CALL_NOT_LIVE. `delivery` says whether " +
          "Vapi took the request or why it failed; a platform that fails never fails the request. Who may: as for instructions.",
        body: jsonBody({ name: "TransferRequest", schema: transferRequestSchema }, parseTransferRequest),
        responses: { 200: { description: "The request and its outcome (to a caller without `read`: the call's id and what changed)", body: documentedWriteAnswer("Transfer", transferSchema) } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "CALL_NOT_LIVE", "TRANSFER_NOT_SUPPORTED", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
