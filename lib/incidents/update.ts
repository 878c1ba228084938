import type { Actor } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import type { IncidentUpdate } from "../calls/schema";
import { writeCalls } from "../calls/write/write-calls";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";
import { changeIncidentStatus } from "./status";

/**
 * PATCH /api/incidents/{id}: a correction of the type or severity of every one of its calls (each
 * call's correction in its history, the agent's values kept; the incident takes the type, its
 * severity follows its calls) and a status move (lib/incidents/status.ts), any combination, in one
 * transaction: feed lock, then the incident row, then its calls. The calls stay together: the
 * dispatcher says they are one emergency of that type (docs/incidents.md, "Corrections").
 */
export async function updateIncident(id: string, update: IncidentUpdate, actor: Actor): Promise<IncidentDetail> {
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
    if (update.status !== undefined) await changeIncidentStatus(writes, incident, update.status, actor);
  });
  return getIncident(id);
}
