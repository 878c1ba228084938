import type { Actor } from "../access/actor";
import { acknowledgeWithWork } from "../acknowledgements/acknowledge";
import type { CallWrites } from "../calls/write/write-calls";
import { canTransition } from "../calls/workflow";
import { lockIncident } from "../incidents/lock";
import { UNITS_CLEARED } from "../incidents/dispositions";
import { changeIncidentStatus } from "../incidents/status";
import type { CallStatus } from "../vocabulary";

/**
 * The incident's status follows its units (docs/units.md, "Incidents follow their units"), moved
 * through the incidents' own status move (lib/incidents/status.ts: its calls, their history, the
 * audit trail), in the caller's transaction:
 * - a unit dispatched: the incident becomes dispatched, when it is not already further along, and
 *   its alert is acknowledged either way (the work has begun);
 * - its last open assignment closed: with a disposition given by the clearing report, it becomes
 *   resolved with it while it is open; without, it becomes resolved (UNITS_CLEARED) when it is
 *   still dispatched: a dispatcher who moved it on (en route, resolved, failed) keeps it where they
 *   put it, and the dashboard asks them for the disposition (docs/units.md, "Incidents follow
 *   their units").
 * Each answers the incident's status move it made (undefined: none), which the unit's move names
 * so that its undo reverts it too (lib/units/undo-state.ts).
 */
export async function followUnitDispatched(writes: CallWrites, incidentId: string, actor: Actor): Promise<{ status: string; changeId?: string }> {
  const incident = await lockIncident(writes, incidentId);
  if (!canTransition(incident.status as CallStatus, "dispatched")) {
    // Already being worked: the unit sent still ends its alert (docs/dashboard.md, "Alerts").
    await acknowledgeWithWork(writes.tx, incidentId, actor, "unit_sent");
    return { status: incident.status };
  }
  return { status: "dispatched", changeId: await changeIncidentStatus(writes, incident, "dispatched", actor) };
}

export async function followUnitCleared(writes: CallWrites, incidentId: string, actor: Actor, disposition: string | null = null): Promise<string | undefined> {
  if (await openAssignments(writes.tx, incidentId)) return undefined;
  const [exists] = await writes.tx.$queryRaw<{ id: string }[]>`SELECT id FROM incidents WHERE id = ${incidentId}`;
  if (!exists) return undefined;
  const incident = await lockIncident(writes, incidentId);
  // A disposition given with the clearing closes it wherever it is: the dispatcher said how it ended.
  if (disposition !== null ? !canTransition(incident.status as CallStatus, "resolved") : incident.status !== "dispatched") return undefined;
  return changeIncidentStatus(writes, incident, "resolved", actor, { disposition: disposition ?? UNITS_CLEARED });
}

/** How many units serve the incident now (its open assignments). */
export async function openAssignments(tx: CallWrites["tx"], incidentId: string): Promise<number> {
  const [open] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM unit_assignments WHERE incident_id = ${incidentId} AND cleared_at IS NULL`;
  return open.n;
}
