import { z } from "zod";
import { LIVE_TOOLS } from "../tools";

/**
 * The most tool calls one Vapi `tool-calls` message may carry (docs/webhook.md, "Live calls"): a
 * model calls the two tools a few times at most in one turn, and each call is a write or a read
 * run in order while the agent waits; a message with more is refused whole (400), not run.
 */
export const VAPI_TOOL_CALLS_MAX = 20;

/** The documented shape, for the OpenAPI document; the adapter (./adapter.ts) reads it leniently (../fields.ts). */
export const vapiMessageSchema = z
  .object({
    message: z.object({
      type: z.string().meta({
        description: "`end-of-call-report` makes a call; `status-update` (`in-progress`, `ended`) and final `transcript` are live events; any other type is archived and acknowledged",
      }),
      timestamp: z.number().optional().meta({ description: "Unix milliseconds (a numeric string is read too)" }),
      call: z.object({
        id: z.string().meta({ description: "Vapi's call id; the call's conversation_id is `vapi:<id>`" }),
        assistantId: z.string().optional(),
        customer: z.object({ number: z.string().optional() }).optional().meta({ description: "`number` is the caller" }),
      }),
      startedAt: z.string().optional().meta({ description: "ISO 8601" }),
      endedAt: z.string().optional().meta({ description: "ISO 8601" }),
      endedReason: z.string().optional().meta({ description: "`customer-busy`, `customer-did-not-answer`, `*-failed-to-connect*`: a failed call" }),
      durationSeconds: z.number().optional(),
      analysis: z
        .object({
          summary: z.string().optional(),
          structuredData: z.record(z.string(), z.unknown()).optional().meta({
            description: "emergency_type, severity, location, latitude, longitude (bare values or {value})",
          }),
          successEvaluation: z.string().optional().meta({ description: "`true`/`pass` (or the boolean true): call_successful" }),
        })
        .optional(),
      artifact: z
        .object({
          transcript: z.string().optional(),
          messages: z.array(z.unknown()).optional().meta({
            description: "The turns: `user` and `bot` messages (`role`, `message`, `secondsFromStart`); `system` and tool messages are not turns",
          }),
          recordingUrl: z.string().optional(),
          stereoRecordingUrl: z.string().optional(),
          recording: z
            .object({ mono: z.object({ combinedUrl: z.string().optional() }).optional(), stereoUrl: z.string().optional() })
            .optional(),
          presignedMonoUrl: z.string().optional().meta({ description: "Fetched when the recording link is refused (401/403) or absent" }),
          presignedStereoUrl: z.string().optional(),
          structuredOutputs: z.record(z.string(), z.unknown()).optional().meta({
            description: "`{<id>: {name, result}}`: the result's emergency_type, severity, location, latitude, longitude where structuredData lacks them",
          }),
        })
        .optional(),
    }),
  })
  .meta({ description: "A Vapi server message; fields beyond these are kept in the archived payload" });

/** The live tools' request and answer (lib/on-the-line/endpoints.ts), read by ./tools.ts. */
export const vapiToolAnswerSchema = z.object({
  results: z.array(
    z.object({
      toolCallId: z.string(),
      name: z.string(),
      result: z.string().optional().meta({ description: "LiveStatus as one line of JSON" }),
      error: z.string().optional().meta({ description: "A tool Mayday does not have" }),
    }),
  ),
});

export const vapiToolCallsSchema = z
  .object({
    message: z.object({
      type: z.string().meta({ description: "`tool-calls`; any other type answers no results" }),
      call: z.object({ id: z.string(), assistantId: z.string().optional(), customer: z.object({ number: z.string().optional() }).optional() }),
      toolCallList: z.array(
        z.object({
          id: z.string(),
          function: z.object({
            name: z.enum(LIVE_TOOLS),
            arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).meta({ description: "An object or a JSON string of one" }),
          }),
        }),
      ).min(1).max(VAPI_TOOL_CALLS_MAX).meta({ description: `1 to ${VAPI_TOOL_CALLS_MAX} tool calls, run in order; more: 400 MISSING_FIELDS, none run` }),
    }),
  })
  .meta({ description: "Vapi's tool-calls server message; fields beyond these are ignored" });
