import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { writeCalls } from "../calls/write/write-calls";
import { DomainError, invalidParameter } from "../domain-error";
import { moveNotes } from "../notes/move";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";

/**
 * POST /api/incidents/{id}/merge: every call of `otherId` moves into `id`, which keeps its status
 * (a call still waiting for the grouper is placed by the dispatcher instead);
 * `otherId`, left without calls, is deleted by the refresh trigger. The calls keep their statuses;
 * `otherId`'s notes move with them. The incident is then arranged by hand (docs/incidents.md, "Corrections").
 * Training and real calls never share an incident: a merge that would mix them is TRAINING_MIX.
 */
export async function mergeIncidents(id: string, otherId: string, actor: Actor): Promise<IncidentDetail> {
  if (id === otherId) throw invalidParameter("Invalid other_id", "An incident cannot be merged into itself");
  await writeCalls(async (writes) => {
    // Both rows in id order, so two opposite merges cannot wait for each other.
    for (const locked of [id, otherId].sort()) await lockIncident(writes, locked);
    const [{ mixed }] = await writes.tx.$queryRaw<{ mixed: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM calls WHERE incident_id IN (${id}, ${otherId}) AND simulation)
         AND EXISTS (SELECT 1 FROM calls WHERE incident_id IN (${id}, ${otherId}) AND NOT simulation) AS mixed`;
    if (mixed) throw new DomainError("TRAINING_MIX", "A training incident (simulated or exercise calls) cannot be merged with a real one");
    const notesMoved = await moveNotes(writes.tx, otherId, id);
    const moved = await writes.moveIncidentCalls(otherId, id);
    await writes.tx.$executeRaw`UPDATE incidents SET arranged_by_hand = true WHERE id = ${id}`;
    await recordAudit(writes.tx, actor, { action: "incident.merged", target: { kind: "incident", id }, before: { other_id: otherId }, after: { calls_moved: moved, notes_moved: notesMoved } });
  });
  return getIncident(id);
}
