import { type Actor, actorRef } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { withFeedLock } from "../feed";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { NOTE_COLUMNS, type NoteRow, toNote } from "./to-note";
import type { Note, NoteRequest } from "./schema";

/**
 * POST /api/incidents/{id}/notes: keeps one note, in the change feed's order. The feed's lock is
 * taken before the incident is read, so a merge that removes the incident either committed before
 * (the note is refused: no incident) or starts after (and moves the note with the others). A unit's
 * radio report names the unit by its call sign as it is now (the roster may rename it later).
 */
export async function addNote(incidentId: string, { text, unitId }: NoteRequest, actor: Actor): Promise<Note> {
  // It holds the feed's lock to its commit like a writer of calls, so it takes its turn with them.
  return withFeedLock(async (tx) => {
    const [incident] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM incidents WHERE id = ${incidentId}`;
    if (!incident) throw notFound(`No incident with id ${incidentId}`);
    await requireMayAct(tx, actor, { incident: incidentId });
    const [unit] = unitId === null ? [null] : await tx.$queryRaw<{ id: string; call_sign: string }[]>`SELECT id, call_sign FROM units WHERE id = ${unitId}`;
    if (unit === undefined) throw notFound(`No unit with id ${unitId}`);
    const [row] = await tx.$queryRaw<NoteRow[]>(Prisma.sql`
      INSERT INTO incident_notes AS n (incident_id, text, author_ref, author_name, unit_id, unit_call_sign)
      VALUES (${incidentId}, ${text}, ${actorRef(actor)}, ${actor.name}, ${unit?.id ?? null}, ${unit?.call_sign ?? null})
      RETURNING ${Prisma.raw(NOTE_COLUMNS)}`);
    const note = toNote(row);
    await recordAudit(tx, actor, {
      action: "incident.note_added",
      target: { kind: "incident", id: incidentId },
      after: { note_id: note.id, text, ...(unit ? { unit_id: unit.id, unit_call_sign: unit.call_sign } : {}) },
    });
    return note;
  });
}
