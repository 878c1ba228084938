import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record";
import { bumpCallsVersion } from "../calls/cache";
import { withCallStore } from "../calls/store";
import { invalidParameter } from "../domain-error";
import { getIncident } from "./detail";
import { lockIncident } from "./lock";
import type { IncidentDetail } from "./schema";

/**
 * POST /api/incidents/{id}/merge: every call of `otherId` moves into `id`, which keeps its status
 * (a call still waiting for the grouper is placed by the dispatcher instead);
 * `otherId`, left without calls, is deleted by the refresh trigger. The calls keep their statuses.
 */
export async function mergeIncidents(id: string, otherId: string, actor: Actor): Promise<IncidentDetail> {
  if (id === otherId) throw invalidParameter("Invalid other_id", "An incident cannot be merged into itself");
  await withCallStore((db) =>
    db.$transaction(async (tx) => {
      // Both rows in id order, so two opposite merges cannot wait for each other.
      for (const locked of [id, otherId].sort()) await lockIncident(tx, locked);
      const moved = await tx.$executeRaw`UPDATE calls SET incident_id = ${id}, grouping_pending = false, updated_at = CURRENT_TIMESTAMP WHERE incident_id = ${otherId}`;
      await recordAudit(tx, actor, { action: "incident.merged", target: { kind: "incident", id }, before: { other_id: otherId }, after: { calls_moved: moved } });
    }),
  );
  await bumpCallsVersion();
  return getIncident(id);
}
