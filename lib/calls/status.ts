import { DomainError, notFound } from "../domain-error";
import { bumpCallsVersion } from "./cache";
import { getCall } from "./detail";
import { type CallDetail, type CallStatus } from "./schema";
import { lockChangeFeed, withCallStore } from "./store";
import { canTransition, nextStatuses } from "./workflow";

function invalidTransition(from: CallStatus, to: CallStatus): DomainError {
  const allowed = nextStatuses(from);
  return new DomainError(
    "INVALID_TRANSITION",
    allowed.length > 0
      ? `Cannot change status from ${from} to ${to}; allowed: ${allowed.join(", ")}`
      : `Cannot change status from ${from} to ${to}; ${from} is final`,
    { extra: { current_status: from, allowed_statuses: allowed } },
  );
}

/**
 * PATCH /api/calls/{id}. The row is locked (SELECT ... FOR UPDATE) while the rule is checked and
 * the change recorded, so of two dispatchers moving one call at once the second sees the first's
 * result and is judged against it. Setting the current status again changes nothing (a retried
 * request succeeds without a second history entry).
 */
export async function updateCallStatus(conversationId: string, status: CallStatus): Promise<CallDetail> {
  const changed = await withCallStore((db) =>
    db.$transaction(async (tx) => {
      // The change feed's lock before the row's, the order every writer of calls keeps.
      await lockChangeFeed(tx);
      const [call] = await tx.$queryRaw<{ id: string; status: CallStatus }[]>`
        SELECT id, status FROM calls WHERE conversation_id = ${conversationId} FOR UPDATE`;
      if (!call) throw notFound(`No call with id ${conversationId}`);
      if (call.status === status) return false;
      if (!canTransition(call.status, status)) throw invalidTransition(call.status, status);
      await tx.call.update({ where: { id: call.id }, data: { status } });
      await tx.callStatusChange.create({
        data: { callId: call.id, fromStatus: call.status, status, changedBy: "api" },
      });
      return true;
    }),
  );
  if (changed) await bumpCallsVersion();
  return getCall(conversationId);
}
