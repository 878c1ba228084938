import type { Actor } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { notFound } from "../domain-error";
import { correctCall, geocodeCorrection, type Regroup } from "./correct";
import { getCall } from "./detail";
import type { CallUpdate, CallUpdated } from "./schema";
import { changeCallStatus } from "./status";
import { writeCalls } from "./write";

/**
 * PATCH /api/calls/{id}: corrections of what the agent heard (type, severity, location) and a
 * status move, any combination, in one transaction: the change feed's lock, then the call's row,
 * then the corrections (lib/calls/correct.ts), then the status (lib/calls/status.ts). A new
 * location is geocoded before the transaction (the lock is never held for the geocoder). Any
 * refusal (unknown place, lower precision unconfirmed, workflow) leaves everything as it was. The
 * answer names the incident a correction moved the call out of. `regroup`: the grouping rule's
 * placement of a corrected call (lib/incidents/regroup.ts regroupCorrectedCall).
 */
export async function updateCall(conversationId: string, update: CallUpdate, actor: Actor, regroup: Regroup): Promise<CallUpdated> {
  const location = update.location === undefined ? undefined : await geocodeCorrection(update.location);
  const { movedOutOf } = await writeCalls(async (writes) => {
    const call = await writes.lockCall(conversationId);
    if (!call) throw notFound(`No call with id ${conversationId}`);
    await requireMayAct(writes.tx, actor, { call });
    const target = { ...call, conversationId };
    const corrected = await correctCall(
      writes,
      target,
      { emergencyType: update.emergency_type, severity: update.severity, location },
      actor,
      { confirmLowerPrecision: update.confirm_lower_precision, regroup },
    );
    if (update.status !== undefined) await changeCallStatus(writes, target, update.status, actor);
    return corrected;
  });
  const call = await getCall(conversationId);
  return movedOutOf === undefined ? call : { ...call, moved_out_of: movedOutOf };
}
