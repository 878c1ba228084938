import { z } from "zod";
import { documentedWriteAnswer } from "../access/write-answer";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { liveToolsRoute, perPlatform, platformEndpoints } from "../voice-platforms/endpoints";
import type { PlatformEndpoints } from "../voice-platforms/platform";
import type { Platform } from "../vocabulary";
import {
  INSTRUCTION_MAX_CHARACTERS, instructionRequestSchema, instructionSchema, liveStatusSchema, liveToolsSchema,
  parseInstructionRequest, parseTransferRequest, transferRequestSchema, transferSchema,
} from "./schema";

/** A platform's live tools: its own declaration (lib/voice-platforms/<name>/endpoints.ts) with what every platform's shares. */
function liveToolsEndpoint({ path, params, answer, ...operation }: PlatformEndpoints["liveTools"]) {
  return {
    path,
    errorFormat: "webhook" as const,
    protection: { rateLimit: rateLimitPolicies.liveTools },
    ...(params ? { params } : {}),
    methods: {
      POST: {
        ...operation,
        permission: "public" as const,
        responses: { 200: answer ?? { description: "What the agent may tell the caller", body: { name: "LiveStatus", schema: liveStatusSchema } } },
      },
    },
  } satisfies Endpoint;
}

/** Each platform's live tools, named `<platform>LiveTools`, with its path's parameters (ElevenLabs' tool) as it declares them. */
type LiveToolsEndpoints = {
  [P in Platform as ReturnType<typeof liveToolsRoute<P>>]: ReturnType<typeof liveToolsEndpoint> &
    ((typeof platformEndpoints)[P]["liveTools"] extends { params: infer Params } ? { params: Params } : unknown);
};
const liveToolsEndpoints = perPlatform(liveToolsRoute, (platform) => liveToolsEndpoint(platformEndpoints[platform].liveTools)) as LiveToolsEndpoints;

const callIdParams = z.object({ id: z.string().meta({ description: "The call's conversation_id, URL-encoded." }) });

/**
 * The agent's tools while the caller is on the line, and a dispatcher's instruction for the agent
 * (docs/webhook.md, "Live calls"). Composed into the one registry by lib/http/endpoints.ts.
 */
export const onTheLineEndpoints = {
  ...liveToolsEndpoints,

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
