import type { Actor } from "../access/actor";
import { requireMayChangeStatus } from "../access/status-rule";
import { recordAudit } from "../audit/record";
import { notFound } from "../domain-error";
import { getCall } from "./detail";
import { type CallDetail, type CallStatus } from "./schema";
import { writeCalls } from "./write";
import { canTransition, invalidTransition } from "./workflow";

/**
 * PATCH /api/calls/{id}. The row is locked (SELECT ... FOR UPDATE) while the rule is checked and
 * the change recorded, so of two dispatchers moving one call at once the second sees the first's
 * result and is judged against it. Setting the current status again changes nothing (a retried
 * request succeeds without a second history entry). The history row and the audit row name the
 * actor, in the change's transaction.
 */
export async function updateCallStatus(conversationId: string, status: CallStatus, actor: Actor): Promise<CallDetail> {
  await writeCalls(async (writes) => {
    const call = await writes.lockCall(conversationId);
    if (!call) throw notFound(`No call with id ${conversationId}`);
    requireMayChangeStatus(actor, call.simulation);
    if (call.status === status) return;
    if (!canTransition(call.status, status)) throw invalidTransition(call.status, status);
    await writes.setCallStatus(call, status, actor);
    await recordAudit(writes.tx, actor, {
      action: "call.status_changed",
      target: { kind: "call", id: conversationId },
      before: { status: call.status },
      after: { status },
    });
  });
  return getCall(conversationId);
}
