import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { lockChangeFeed } from "../calls/write/lock";
import { inTurn } from "../calls/write/turns";
import { withDatabase } from "../db/with-database";
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
  return inTurn(() => withDatabase((db) =>
    db.$transaction(async (tx) => {
      await lockChangeFeed(tx);
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
    }),
  ));
}
