import { type Actor, actorRef } from "../access/actor";
import { requireMayChangeStatus } from "../access/status-rule";
import { recordAudit } from "../audit/record";
import { notFound } from "../domain-error";
import { bumpCallsVersion } from "./cache";
import { getCall } from "./detail";
import { type CallDetail, type CallStatus } from "./schema";
import { lockChangeFeed, withCallStore } from "./store";
import { canTransition, invalidTransition } from "./workflow";

/**
 * PATCH /api/calls/{id}. The row is locked (SELECT ... FOR UPDATE) while the rule is checked and
 * the change recorded, so of two dispatchers moving one call at once the second sees the first's
 * result and is judged against it. Setting the current status again changes nothing (a retried
 * request succeeds without a second history entry). The history row and the audit row name the
 * actor, in the change's transaction.
 */
export async function updateCallStatus(conversationId: string, status: CallStatus, actor: Actor): Promise<CallDetail> {
  const changed = await withCallStore((db) =>
    db.$transaction(async (tx) => {
      // The change feed's lock before the row's, the order every writer of calls keeps.
      await lockChangeFeed(tx);
      const [call] = await tx.$queryRaw<{ id: string; status: CallStatus; simulation: boolean }[]>`
        SELECT id, status, simulation FROM calls WHERE conversation_id = ${conversationId} FOR UPDATE`;
      if (!call) throw notFound(`No call with id ${conversationId}`);
      requireMayChangeStatus(actor, call.simulation);
      if (call.status === status) return false;
      if (!canTransition(call.status, status)) throw invalidTransition(call.status, status);
      await tx.call.update({ where: { id: call.id }, data: { status } });
      await tx.callStatusChange.create({
        data: { callId: call.id, fromStatus: call.status, status, changedBy: actorRef(actor), changedByName: actor.name },
      });
      await recordAudit(tx, actor, {
        action: "call.status_changed",
        target: { kind: "call", id: conversationId },
        before: { status: call.status },
        after: { status },
      });
      return true;
    }),
  );
  if (changed) await bumpCallsVersion();
  return getCall(conversationId);
}
