import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import type { CallStatus } from "./schema";
import type { CallWrites } from "./write/write-calls";
import { canTransition, invalidTransition } from "./workflow";

/**
 * A status move of PATCH /api/calls/{id}, in its transaction, the call locked (SELECT ... FOR
 * UPDATE) while the rule is checked and the change recorded, so of two dispatchers moving one call
 * at once the second sees the first's result and is judged against it. Setting the current status
 * again changes nothing (a retried request succeeds without a second history entry). The history
 * row and the audit row name the actor.
 */
export async function changeCallStatus(
  writes: CallWrites,
  call: { id: string; conversationId: string; status: CallStatus },
  status: CallStatus,
  actor: Actor,
): Promise<void> {
  if (call.status === status) return;
  if (!canTransition(call.status, status)) throw invalidTransition(call.status, status);
  await writes.setCallStatus(call, status, actor);
  await recordAudit(writes.tx, actor, {
    action: "call.status_changed",
    target: { kind: "call", id: call.conversationId },
    before: { status: call.status },
    after: { status },
  });
}
