import { z } from "zod";

/** An ElevenLabs server tool's request (lib/on-the-line/endpoints.ts), read by ./tools.ts. */
export const elevenLabsToolSchema = z
  .object({
    conversation_id: z.string().meta({ description: "The dynamic variable system__conversation_id" }),
    caller_id: z.string().optional().meta({ description: "system__caller_id" }),
    agent_id: z.string().optional().meta({ description: "system__agent_id" }),
  })
  .catchall(z.unknown())
  .meta({ description: "An ElevenLabs server tool's body: the call's system variables beside the agent's arguments" });
