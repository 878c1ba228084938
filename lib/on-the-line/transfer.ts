import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { withDatabase } from "../db/with-database";
import { DomainError } from "../domain-error";
import { platformAdapters } from "../voice-platforms/adapters";
import type { Delivery } from "../voice-platforms/control";
import { controlledCall } from "./instruction";

export interface TransferRequest {
  /** E.164. */
  number: string;
  /** What the agent says to the caller before the transfer; none: Vapi's default. */
  message: string | null;
}

export interface TransferAnswer {
  call_id: string;
  number: string;
  /** `pushed`: Vapi took the request; `failed`: it did not, and why. */
  delivery: Delivery;
}

/**
 * POST /api/calls/{id}/transfer: asks the platform to transfer the caller to a human number,
 * through the platform's live control (its adapter's: Vapi's). Refused before any request when the call is not on
 * the line (CALL_NOT_LIVE) or its platform cannot be asked from outside the call
 * (TRANSFER_NOT_SUPPORTED: Retell, ElevenLabs). Audited with the number and the outcome, whatever
 * it is; a platform that fails is an outcome, not an error. Who may: as for instructions.
 */
export async function requestTransfer(conversationId: string, request: TransferRequest, actor: Actor): Promise<TransferAnswer> {
  const call = await withDatabase((db) => db.$transaction((tx) => controlledCall(tx, conversationId, actor)));
  if (!call.onLine) throw new DomainError("CALL_NOT_LIVE", `Call ${conversationId} is not on the line: there is no caller to transfer`);
  const { control } = platformAdapters[call.platform];
  if (control.transferRefusal !== null) throw new DomainError("TRANSFER_NOT_SUPPORTED", control.transferRefusal);
  const delivery = await control.transfer(call, request.number, request.message);
  await withDatabase((db) =>
    recordAudit(db, actor, {
      action: "call.transfer_requested",
      target: { kind: "call", id: conversationId },
      after: { number: request.number, message: request.message, ...delivery },
    }),
  );
  return { call_id: conversationId, number: request.number, delivery };
}
