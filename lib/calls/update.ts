import type { Actor } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { notFound } from "../domain-error";
import { correctCall, geocodeCorrection, type Regroup } from "./correct-call";
import { getCall } from "./detail";
import type { CallUpdate, CallUpdated } from "./schema";
import { changeCallStatus } from "./change-call-status";
import { writeCalls } from "./write/write-calls";

/**
 * PATCH /api/calls/{id}: corrections of what the agent heard (type, severity, location) and a
 * status move, any combination, in one transaction: the change feed's lock, then the call's row,
 * then the corrections (lib/calls/correct-call.ts), then the status (lib/calls/change-call-status.ts). A new
 * location is geocoded before the transaction (the lock is never held for the geocoder). Any
 * refusal (unknown place, a street the centre's GIS lacks or lower precision unconfirmed, workflow) leaves everything as it was. The
 * answer names the incident a correction moved the call out of. `regroup`: the grouping rule's
 * placement of a corrected call (lib/incidents/regroup.ts regroupCorrectedCall).
 */
export async function updateCall(conversationId: string, update: CallUpdate, actor: Actor, regroup: Regroup): Promise<CallUpdated> {
  const location = update.location === undefined ? undefined : await geocodeCorrection(update.location, { confirmCoarse: update.confirm_coarse });
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
      // Placing a street the GIS lacks coarse, once confirmed, is taking its lower precision too: one question, not two.
      { confirmLowerPrecision: update.confirm_lower_precision || update.confirm_coarse, regroup },
    );
    if (update.status !== undefined) await changeCallStatus(writes, target, update.status, actor);
    return corrected;
  });
  const call = await getCall(conversationId);
  return movedOutOf === undefined ? call : { ...call, moved_out_of: movedOutOf };
}
