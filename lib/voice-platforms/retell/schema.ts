import { z } from "zod";
import { LIVE_TOOLS } from "../tools";

/** The documented shape, for the OpenAPI document; the adapter (./adapter.ts) reads it leniently (../fields.ts). */
export const retellEventSchema = z
  .object({
    event: z.string().meta({
      description: "`call_ended` and `call_analyzed` make (one) call; `call_started` and `transcript_updated` are live events; any other event is archived and acknowledged",
    }),
    call: z.object({
      call_id: z.string().meta({ description: "Retell's call id; the call's conversation_id is `retell:<call_id>`" }),
      agent_id: z.string().optional(),
      call_status: z.string().optional().meta({ description: "`not_connected`: a failed call" }),
      direction: z.enum(["inbound", "outbound"]).optional(),
      from_number: z.string().optional().meta({ description: "The caller (inbound calls)" }),
      to_number: z.string().optional().meta({ description: "The caller (outbound calls)" }),
      start_timestamp: z.number().optional().meta({ description: "Unix milliseconds" }),
      end_timestamp: z.number().optional().meta({ description: "Unix milliseconds" }),
      duration_ms: z.number().optional(),
      transcript: z.string().optional(),
      transcript_object: z.array(z.unknown()).optional(),
      recording_url: z.string().optional(),
      disconnection_reason: z.string().optional(),
      call_analysis: z
        .object({
          call_summary: z.string().optional(),
          call_successful: z.boolean().optional(),
          custom_analysis_data: z.record(z.string(), z.unknown()).optional().meta({
            description: "emergency_type, severity, location, latitude, longitude",
          }),
        })
        .optional()
        .meta({ description: "call_analyzed only" }),
    }),
  })
  .meta({ description: "A Retell webhook event; fields beyond these are kept in the archived payload" });

/** The live tools' request (lib/on-the-line/endpoints.ts), read by ./tools.ts. */
export const retellFunctionSchema = z
  .object({
    name: z.enum(LIVE_TOOLS),
    args: z.record(z.string(), z.unknown()),
    call: z.object({
      call_id: z.string(),
      agent_id: z.string().optional(),
      direction: z.enum(["inbound", "outbound"]).optional(),
      from_number: z.string().optional(),
      to_number: z.string().optional(),
    }),
  })
  .meta({ description: "A Retell custom function's request (\"Payload: args only\" off); fields beyond these are ignored" });
