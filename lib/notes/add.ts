import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { lockChangeFeed } from "../calls/write/lock";
import { inTurn } from "../calls/write/turns";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { NOTE_COLUMNS, type NoteRow, toNote } from "./to-note";
import type { Note } from "./schema";

/**
 * POST /api/incidents/{id}/notes: keeps one note, in the change feed's order. The feed's lock is
 * taken before the incident is read, so a merge that removes the incident either committed before
 * (the note is refused: no incident) or starts after (and moves the note with the others).
 */
export async function addNote(incidentId: string, text: string, actor: Actor): Promise<Note> {
  // It holds the feed's lock to its commit like a writer of calls, so it takes its turn with them.
  return inTurn(() => withDatabase((db) =>
    db.$transaction(async (tx) => {
      await lockChangeFeed(tx);
      const [incident] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM incidents WHERE id = ${incidentId}`;
      if (!incident) throw notFound(`No incident with id ${incidentId}`);
      await requireMayAct(tx, actor, { incident: incidentId });
      const [row] = await tx.$queryRaw<NoteRow[]>(Prisma.sql`
        INSERT INTO incident_notes AS n (incident_id, text, author_ref, author_name)
        VALUES (${incidentId}, ${text}, ${actorRef(actor)}, ${actor.name})
        RETURNING ${Prisma.raw(NOTE_COLUMNS)}`);
      const note = toNote(row);
      await recordAudit(tx, actor, { action: "incident.note_added", target: { kind: "incident", id: incidentId }, after: { note_id: note.id, text } });
      return note;
    }),
  ));
}
