import type { Actor } from "../access/actor";
import { acknowledgeWithWork } from "../acknowledgements/acknowledge";
import type { CallWrites } from "../calls/write/write-calls";
import { canTransition } from "../calls/workflow";
import { lockIncident } from "../incidents/lock";
import { changeIncidentStatus } from "../incidents/status";
import type { CallStatus } from "../vocabulary";

/**
 * The incident's status follows its units (docs/units.md, "Incidents follow their units"), moved
 * through the incidents' own status move (lib/incidents/status.ts: its calls, their history, the
 * audit trail), in the caller's transaction:
 * - a unit dispatched: the incident becomes dispatched, when it is not already further along, and
 *   its alert is acknowledged either way (the work has begun);
 * - its last open assignment closed: it becomes resolved, when it is still dispatched. A
 *   dispatcher who moved it on (en route, resolved, failed) keeps it where they put it.
 */
export async function followUnitDispatched(writes: CallWrites, incidentId: string, actor: Actor): Promise<string> {
  const incident = await lockIncident(writes, incidentId);
  if (!canTransition(incident.status as CallStatus, "dispatched")) {
    // Already being worked: the unit sent still ends its alert (docs/dashboard.md, "Alerts").
    await acknowledgeWithWork(writes.tx, incidentId, actor, "unit_sent");
    return incident.status;
  }
  await changeIncidentStatus(writes, incident, "dispatched", actor);
  return "dispatched";
}

export async function followUnitCleared(writes: CallWrites, incidentId: string, actor: Actor): Promise<void> {
  const [open] = await writes.tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM unit_assignments WHERE incident_id = ${incidentId} AND cleared_at IS NULL`;
  if (open.n > 0) return;
  const [exists] = await writes.tx.$queryRaw<{ id: string }[]>`SELECT id FROM incidents WHERE id = ${incidentId}`;
  if (!exists) return;
  const incident = await lockIncident(writes, incidentId);
  if (incident.status !== "dispatched") return;
  await changeIncidentStatus(writes, incident, "resolved", actor);
}
