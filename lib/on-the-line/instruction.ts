import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { controlUrlOf } from "../calls/control-urls";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import { withDatabase } from "../db/with-database";
import { notFound } from "../domain-error";
import type { Platform } from "../vocabulary";
import { platformAdapters } from "../voice-platforms/adapters";
import { type ControlledCall, type Delivery, waiting } from "../voice-platforms/control";

export interface LiveInstruction {
  id: string;
  call_id: string;
  text: string;
  author: string;
  created_at: string;
  /** Whether the platform's live control took it, or it waits for the agent's incident_status, or the push failed (and why). */
  delivery: Delivery;
}

/**
 * The call a dispatcher acts on live, locked FOR SHARE in the action's transaction, once the actor
 * may act on it (lib/access/status-rule.ts); NOT_FOUND when there is none.
 */
export async function controlledCall(tx: Pick<Db, "$queryRaw">, conversationId: string, actor: Actor): Promise<ControlledCall & { id: string }> {
  const [call] = await tx.$queryRaw<{ id: string; simulation: boolean; platform: Platform; on_line: boolean }[]>`
    SELECT id, simulation, platform, on_line FROM calls WHERE conversation_id = ${conversationId} FOR SHARE`;
  if (!call) throw notFound(`No call with id ${conversationId}`);
  await requireMayAct(tx, actor, { call });
  return { id: call.id, conversationId, platform: call.platform, onLine: call.on_line, controlUrl: await controlUrlOf(tx, call.id) };
}

/**
 * POST /api/calls/{id}/instruction: a dispatcher's instruction for the voice agent on this call.
 * Kept first (append-only, audited) for the agent's next `incident_status` (./incident-status.ts), then,
 * while the call is on the line, pushed through the platform's live control (its adapter's); the
 * outcome is set on the instruction and audited apart, so a platform that fails or never answers
 * costs neither the instruction nor its audit entry. A trainer may instruct on training calls only.
 */
export async function instructAgent(conversationId: string, text: string, actor: Actor): Promise<LiveInstruction> {
  const { call, row } = await withDatabase((db) =>
    db.$transaction(async (tx) => {
      const call = await controlledCall(tx, conversationId, actor);
      const [row] = await tx.$queryRaw<{ id: string; text: string; author_name: string; created_at: Date }[]>`
        INSERT INTO live_instructions (id, call_id, text, author_ref, author_name)
        VALUES (${uuid7()}, ${call.id}, ${text}, ${actorRef(actor)}, ${actor.name})
        RETURNING id, text, author_name, created_at`;
      await recordAudit(tx, actor, {
        action: "call.instruction_written",
        target: { kind: "call", id: conversationId },
        after: { instruction_id: row.id, text },
      });
      return { call, row };
    }),
  );
  const delivery = call.onLine ? await platformAdapters[call.platform].control.instruct(call, text) : waiting("the call is not on the line");
  await withDatabase((db) =>
    db.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE live_instructions SET delivery = ${delivery.outcome}, delivery_reason = ${delivery.reason} WHERE id = ${row.id}`;
      await recordAudit(tx, actor, {
        action: "call.instruction_delivered",
        target: { kind: "call", id: conversationId },
        after: { instruction_id: row.id, platform: call.platform, ...delivery },
      });
    }),
  );
  return { id: row.id, call_id: conversationId, text: row.text, author: row.author_name, created_at: row.created_at.toISOString(), delivery };
}
