import type { Actor } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { writeCalls } from "../calls/write/write-calls";
import { canTransition, invalidTransition } from "../calls/workflow";
import type { CallStatus } from "../vocabulary";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import { requireMoveDetails } from "./move-rule";
import type { IncidentDetail, IncidentPatch } from "./schema";
import { changeIncidentStatus } from "./status";

/**
 * PATCH /api/incidents/{id}: a correction of the type or severity of every one of its calls (each
 * call's correction in its history, the agent's values kept; the incident takes the type, its
 * severity follows its calls) and a status move (lib/incidents/status.ts), any combination, in one
 * transaction: feed lock, then the incident row, then its calls. The calls stay together: the
 * dispatcher says they are one emergency of that type (docs/incidents.md, "Corrections"). A status
 * move says what lib/incidents/move-rule.ts asks: a dispatch without a unit its reason, a close its
 * disposition.
 */
export async function updateIncident(id: string, update: IncidentPatch, actor: Actor): Promise<IncidentDetail> {
  await writeCalls(async (writes) => {
    const incident = await lockIncident(writes, id);
    await requireMayAct(writes.tx, actor, { incident: id });
    if (update.emergency_type !== undefined || update.severity !== undefined) {
      const [before] = await writes.tx.$queryRaw<{ emergency_type: string; severity: string }[]>`
        SELECT emergency_type, severity FROM incidents WHERE id = ${id}`;
      const correction = { emergencyType: update.emergency_type, severity: update.severity };
      const changed = await writes.correctIncidentCalls(id, correction, actor);
      if (update.emergency_type !== undefined) {
        await writes.tx.$executeRaw`
          UPDATE incidents SET emergency_type = ${update.emergency_type}, updated_at = CURRENT_TIMESTAMP
          WHERE id = ${id} AND emergency_type <> ${update.emergency_type}`;
      }
      if (changed.length > 0) {
        const fields = { emergency_type: update.emergency_type, severity: update.severity };
        await recordAudit(writes.tx, actor, {
          action: "incident.corrected",
          target: { kind: "incident", id },
          before: { emergency_type: before.emergency_type, severity: before.severity },
          after: { ...fields, calls_corrected: new Set(changed.map((value) => value.callId)).size },
        });
      }
    }
    if (update.status !== undefined && update.status !== incident.status) {
      if (!canTransition(incident.status as CallStatus, update.status)) throw invalidTransition(incident.status as CallStatus, update.status);
      const given = { dispatchReason: update.dispatch_reason, disposition: update.disposition };
      await changeIncidentStatus(writes, incident, update.status, actor, await requireMoveDetails(writes.tx, incident, update.status, given));
    }
  });
  return getIncident(id);
}
