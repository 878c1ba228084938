import type { Acknowledgement } from "./schema";

/** An incident_acknowledgements row as the queries select it (ACKNOWLEDGEMENT_COLUMNS). */
export interface AcknowledgementRow {
  id: bigint;
  incident_id: string;
  actor_ref: string;
  actor_name: string;
  acknowledged_at: Date;
}

export const ACKNOWLEDGEMENT_COLUMNS = "a.id, a.incident_id, a.actor_ref, a.actor_name, a.acknowledged_at";

export function toAcknowledgement(row: AcknowledgementRow): Acknowledgement {
  // actor_ref is lib/access/actor.ts actorRef: `user:<id>` or `key:<id>`.
  const separator = row.actor_ref.indexOf(":");
  return {
    id: String(row.id),
    incident_id: row.incident_id,
    by: { kind: row.actor_ref.slice(0, separator) === "user" ? "user" : "key", id: row.actor_ref.slice(separator + 1), name: row.actor_name },
    acknowledged_at: Math.floor(row.acknowledged_at.getTime() / 1000),
  };
}
