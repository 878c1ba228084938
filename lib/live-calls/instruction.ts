import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { uuid7 } from "../db/uuid7";
import { withDatabase } from "../db/with-database";
import { notFound } from "../domain-error";

/** An instruction for the agent: at most this many characters (the agent reads it out, or acts on it). */
export const INSTRUCTION_MAX_CHARACTERS = 500;

export interface LiveInstruction {
  id: string;
  call_id: string;
  text: string;
  author: string;
  created_at: string;
}

/**
 * POST /api/calls/{id}/instruction: a dispatcher's instruction for the voice agent on this call,
 * kept (append-only, audited) for the agent's next `incident_status` (./status.ts). Any call may
 * be given one; the agent only asks while the call is live. A trainer may instruct on training
 * calls only (lib/access/status-rule.ts).
 */
export async function instructAgent(conversationId: string, text: string, actor: Actor): Promise<LiveInstruction> {
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const [call] = await tx.$queryRaw<{ id: string; simulation: boolean }[]>`
        SELECT id, simulation FROM calls WHERE conversation_id = ${conversationId} FOR SHARE`;
      if (!call) throw notFound(`No call with id ${conversationId}`);
      await requireMayAct(tx, actor, { call });
      const [row] = await tx.$queryRaw<{ id: string; text: string; author_name: string; created_at: Date }[]>`
        INSERT INTO live_instructions (id, call_id, text, author_ref, author_name)
        VALUES (${uuid7()}, ${call.id}, ${text}, ${actorRef(actor)}, ${actor.name})
        RETURNING id, text, author_name, created_at`;
      await recordAudit(tx, actor, {
        action: "call.instruction_written",
        target: { kind: "call", id: conversationId },
        after: { instruction_id: row.id, text },
      });
      return { id: row.id, call_id: conversationId, text: row.text, author: row.author_name, created_at: row.created_at.toISOString() };
    }),
  );
}
