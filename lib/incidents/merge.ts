import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record";
import { writeCalls } from "../calls/write";
import { invalidParameter } from "../domain-error";
import { moveNotes } from "../notes/move";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";

/**
 * POST /api/incidents/{id}/merge: every call of `otherId` moves into `id`, which keeps its status
 * (a call still waiting for the grouper is placed by the dispatcher instead);
 * `otherId`, left without calls, is deleted by the refresh trigger. The calls keep their statuses;
 * `otherId`'s notes move with them. The incident is then arranged by hand (docs/incidents.md, "Corrections").
 */
export async function mergeIncidents(id: string, otherId: string, actor: Actor): Promise<IncidentDetail> {
  if (id === otherId) throw invalidParameter("Invalid other_id", "An incident cannot be merged into itself");
  await writeCalls(async (writes) => {
    // Both rows in id order, so two opposite merges cannot wait for each other.
    for (const locked of [id, otherId].sort()) await lockIncident(writes, locked);
    const notesMoved = await moveNotes(writes.tx, otherId, id);
    const moved = await writes.moveIncidentCalls(otherId, id);
    await writes.tx.$executeRaw`UPDATE incidents SET arranged_by_hand = true WHERE id = ${id}`;
    await recordAudit(writes.tx, actor, { action: "incident.merged", target: { kind: "incident", id }, before: { other_id: otherId }, after: { calls_moved: moved, notes_moved: notesMoved } });
  });
  return getIncident(id);
}
