import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { withFeedLock } from "../feed";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { ACKNOWLEDGEMENT_COLUMNS, type AcknowledgementRow, toAcknowledgement } from "./record";
import type { Acknowledgement } from "./schema";

/**
 * POST /api/incidents/{id}/acknowledge, the one door of `incident_acknowledgements`: a dispatcher
 * has seen the incident's alert (its new calls, its reminder). The row is in the change feed, so
 * every dashboard reads its alerts again and the incident leaves their "New" strip until another
 * call arrives or its wait passes the threshold again. Like a note, it takes the feed's lock
 * before it reads the incident, so a merge that removes the incident cannot pass it.
 */
export async function acknowledgeIncident(incidentId: string, actor: Actor): Promise<Acknowledgement> {
  return withFeedLock(async (tx) => {
    const [incident] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM incidents WHERE id = ${incidentId}`;
    if (!incident) throw notFound(`No incident with id ${incidentId}`);
    await requireMayAct(tx, actor, { incident: incidentId });
    const [row] = await tx.$queryRaw<AcknowledgementRow[]>(Prisma.sql`
      INSERT INTO incident_acknowledgements AS a (incident_id, actor_ref, actor_name)
      VALUES (${incidentId}, ${actorRef(actor)}, ${actor.name})
      RETURNING ${Prisma.raw(ACKNOWLEDGEMENT_COLUMNS)}`);
    const acknowledgement = toAcknowledgement(row);
    await recordAudit(tx, actor, {
      action: "incident.acknowledged",
      target: { kind: "incident", id: incidentId },
      after: { acknowledgement_id: acknowledgement.id },
    });
    return acknowledgement;
  });
}

/**
 * An incident's alert ends with the work (docs/dashboard.md, "Alerts"): dispatching it, or sending
 * it a unit, acknowledges its new calls in the same transaction (the feed's lock held, the incident
 * locked), when a call came after its latest acknowledgement; otherwise nothing is written. Its
 * reminder ends anyway: it is no longer waiting undispatched. One audit row `incident.acknowledged`
 * naming the work.
 */
export async function acknowledgeWithWork(tx: Pick<Db, "$queryRaw" | "$executeRaw">, incidentId: string, actor: Actor, work: "dispatched" | "unit_sent"): Promise<void> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO incident_acknowledgements (incident_id, actor_ref, actor_name)
    SELECT ${incidentId}, ${actorRef(actor)}, ${actor.name}
    WHERE EXISTS (
      SELECT 1 FROM calls c WHERE c.incident_id = ${incidentId}
        AND c.created_at > COALESCE((SELECT max(a.acknowledged_at) FROM incident_acknowledgements a WHERE a.incident_id = ${incidentId}), '-infinity'::timestamptz))
    RETURNING id`;
  if (!row) return;
  await recordAudit(tx, actor, {
    action: "incident.acknowledged",
    target: { kind: "incident", id: incidentId },
    after: { acknowledgement_id: String(row.id), with: work },
  });
}

/**
 * POST /api/live/alerts/acknowledge: every incident of `ids` (the alerting incidents of one kind, as
 * lib/board/acknowledge-alerts.ts reads them under the feed's lock) acknowledged at once, one row and
 * one audit row each; answers how many.
 */
export async function acknowledgeIncidents(tx: Pick<Db, "$queryRaw" | "$executeRaw">, ids: readonly string[], actor: Actor): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await tx.$queryRaw<{ id: bigint; incident_id: string }[]>`
    INSERT INTO incident_acknowledgements (incident_id, actor_ref, actor_name)
    SELECT i.id, ${actorRef(actor)}, ${actor.name} FROM incidents i WHERE i.id = ANY(${[...ids]}::text[]) ORDER BY i.id
    RETURNING id, incident_id`;
  for (const row of rows) {
    await recordAudit(tx, actor, {
      action: "incident.acknowledged",
      target: { kind: "incident", id: row.incident_id },
      after: { acknowledgement_id: String(row.id), with: "acknowledge_all" },
    });
  }
  return rows.length;
}
