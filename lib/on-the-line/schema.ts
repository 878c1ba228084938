import { z } from "zod";
import { DomainError } from "../domain-error";
import { DELIVERY_OUTCOMES } from "../voice-platforms/control";
import type { TransferRequest } from "./transfer";
import { liveToolDefinitions } from "./tools";

/** The endpoints' contracts (lib/http/endpoints.ts; docs/webhook.md, "Live calls"). */

export const liveStatusSchema = z
  .object({
    reported: z.boolean().meta({ description: "Whether the dispatch centre has this call (false before the first report_emergency)" }),
    help_dispatched: z.boolean().meta({ description: "Help is on its way: the call or its incident is dispatched or en route" }),
    others_reporting: z.number().int().meta({ description: "Other calls about the same emergency (the incident's other calls)" }),
    instruction: z.string().nullable().meta({ description: "The latest instruction a dispatcher wrote for the agent on this call" }),
  })
  .meta({ description: "What the agent may tell the caller" });

export const liveToolsSchema = z
  .object({
    tools: z.array(z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) })),
  })
  .meta({ description: "Mayday's tools as function definitions to paste into the agent (docs/webhook.md, \"Live calls\")" });

export const liveToolsDocument = { tools: liveToolDefinitions };

/** An instruction for the agent: at most this many characters (the agent reads it out, or acts on it). */
export const INSTRUCTION_MAX_CHARACTERS = 500;

export const instructionRequestSchema = z.object({
  text: z.string().meta({ description: `1 to ${INSTRUCTION_MAX_CHARACTERS} characters` }),
});

export const deliverySchema = z
  .object({
    outcome: z.enum(DELIVERY_OUTCOMES).meta({
      description: "pushed: the platform's live control took it; waiting: the agent gets it from incident_status; failed: the push failed (see reason)",
    }),
    reason: z.string().nullable().meta({ description: "Why it waits or failed; null once pushed" }),
  })
  .meta({ description: "What became of a push through the platform's live control (docs/webhook.md, \"Live calls\")" });

export const instructionSchema = z.object({
  id: z.string(),
  call_id: z.string().meta({ description: "The call's conversation_id" }),
  text: z.string(),
  author: z.string(),
  created_at: z.string().meta({ description: "ISO 8601" }),
  delivery: deliverySchema,
});

/** A transfer's spoken message: at most Vapi's 1000 characters. */
export const TRANSFER_MESSAGE_MAX_CHARACTERS = 1000;
/** E.164: `+`, a first digit other than 0, at most 15 digits. */
const E164 = /^\+[1-9]\d{6,14}$/;

export const transferRequestSchema = z.object({
  number: z.string().meta({ description: "The human's number, E.164 (`+16155550100`)" }),
  message: z.string().optional().meta({ description: `What the agent says to the caller first, up to ${TRANSFER_MESSAGE_MAX_CHARACTERS} characters` }),
});

export const transferSchema = z.object({
  call_id: z.string().meta({ description: "The call's conversation_id" }),
  number: z.string(),
  delivery: deliverySchema,
});

export type Instruction = z.infer<typeof instructionSchema>;
export type Transfer = z.infer<typeof transferSchema>;

export function parseTransferRequest(json: unknown): TransferRequest {
  const parsed = transferRequestSchema.safeParse(json);
  const number = parsed.success ? parsed.data.number.trim() : "";
  if (!E164.test(number)) throw new DomainError("INVALID_PARAMETER", "number must be E.164: + and 7 to 15 digits, e.g. +16155550100", { label: "Invalid number" });
  const message = parsed.success ? (parsed.data.message?.trim() ?? "") : "";
  if (message.length > TRANSFER_MESSAGE_MAX_CHARACTERS) {
    throw new DomainError("INVALID_PARAMETER", `message must be at most ${TRANSFER_MESSAGE_MAX_CHARACTERS} characters`, { label: "Invalid message" });
  }
  return { number, message: message === "" ? null : message };
}

export function parseInstructionRequest(json: unknown): { text: string } {
  const parsed = instructionRequestSchema.safeParse(json);
  const text = parsed.success ? parsed.data.text.trim() : "";
  if (text === "" || text.length > INSTRUCTION_MAX_CHARACTERS) {
    throw new DomainError("INVALID_PARAMETER", `text must be 1 to ${INSTRUCTION_MAX_CHARACTERS} characters`, { label: "Invalid text" });
  }
  return { text };
}
