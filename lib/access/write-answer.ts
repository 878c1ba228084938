import { z } from "zod";
import type { Actor } from "./actor";

/**
 * What a write answers a caller who may not read what it wrote (docs/security.md, "Answers to
 * writes"): a key that may dispatch but not read moves a call, and must not get the call's
 * transcript and caller's number back in the answer.
 */
export const writeAcknowledgementSchema = z
  .object({
    id: z.string().meta({ description: "What was written: the call's conversation_id, the incident's id, the note's id" }),
    status: z.string().optional().meta({ description: "Its status after the write (calls and incidents)" }),
    changed: z.array(z.string()).meta({ description: "What the write changed: the fields set, or `calls` (merge, split), `notes`" }),
  })
  .meta({ description: "The answer to a caller without the `read` permission, in place of the record" });

export type WriteAcknowledgement = z.infer<typeof writeAcknowledgementSchema>;

/** The record for a caller who may read it, else the acknowledgement of what the write did. */
export function writeAnswer<T>(actor: Actor, record: T, acknowledge: (record: T) => WriteAcknowledgement): T | WriteAcknowledgement {
  return actor.permissions.has("read") ? record : acknowledge(record);
}

/**
 * The documented answer of a write a caller without `read` may make (an endpoint's response body):
 * the record, or to that caller the acknowledgement (docs/security.md, "Answers to writes").
 */
export const documentedWriteAnswer = (record: string, schema: z.ZodType) => ({
  name: `${record}OrAcknowledgement`,
  schema: z.union([schema, writeAcknowledgementSchema]),
});

/** What a write's documented answer adds to its description. */
export const WITHOUT_READ = " (to a caller without `read`: id, status and what changed)";
