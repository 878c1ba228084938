import type { Db } from "../db/client";

type Tx = Pick<Db, "$executeRaw">;

/*
 * Notes follow calls out of an incident that ceases to exist, so none is lost with it. Each moved
 * note takes a new change number, so every dashboard sees it under its new incident. Both run
 * before the calls move, while the incident that the refresh then removes still holds them.
 */

/** A merge: the merged incident's notes join the surviving one. */
export function moveNotes(tx: Tx, from: string, to: string): Promise<number> {
  return tx.$executeRaw`UPDATE incident_notes SET incident_id = ${to} WHERE incident_id = ${from}`;
}

/** The grouper: a waiting call's own incident (it alone) ends when the call is placed elsewhere. */
export function moveNotesWithPlacedCalls(tx: Tx, placed: readonly { id: string; incident_id: string }[]): Promise<number> {
  return tx.$executeRaw`
    UPDATE incident_notes n SET incident_id = t.incident_id
    FROM unnest(${placed.map((row) => row.id)}::text[], ${placed.map((row) => row.incident_id)}::text[]) AS t(id, incident_id)
    JOIN calls c ON c.id = t.id
    WHERE n.incident_id = c.incident_id AND c.incident_id <> t.incident_id`;
}
