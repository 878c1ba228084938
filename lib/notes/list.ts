import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { NOTE_COLUMNS, type NoteRow, toNote } from "./to-note";
import type { QueryValues } from "../query-parameters";
import type { Note, NotesPage, notesQueryParameters } from "./schema";

/** GET /api/incidents/{id}/notes: the incident's notes, newest first, keyset-paginated by id. */
export async function listNotes(incidentId: string, page: QueryValues<typeof notesQueryParameters>): Promise<NotesPage> {
  const limit = page.limit ?? 50;
  return withDatabase(async (db) => {
    const [incident] = await db.$queryRaw<{ id: string }[]>`SELECT id FROM incidents WHERE id = ${incidentId}`;
    if (!incident) throw notFound(`No incident with id ${incidentId}`);
    const before = page.before === undefined ? Prisma.empty : Prisma.sql`AND n.id < ${BigInt(page.before)}`;
    const rows = await db.$queryRaw<NoteRow[]>(Prisma.sql`
      SELECT ${Prisma.raw(NOTE_COLUMNS)} FROM incident_notes n
      WHERE n.incident_id = ${incidentId} ${before}
      ORDER BY n.id DESC LIMIT ${limit + 1}`);
    const notes = rows.slice(0, limit).map(toNote);
    return { notes, next: rows.length > limit ? notes.at(-1)!.id : null };
  });
}

/** Every note of the incident, oldest first: what its exports carry (lib/eido). */
export async function notesForExport(db: Pick<Db, "$queryRaw">, incidentId: string): Promise<Note[]> {
  const rows = await db.$queryRaw<NoteRow[]>(Prisma.sql`
    SELECT ${Prisma.raw(NOTE_COLUMNS)} FROM incident_notes n WHERE n.incident_id = ${incidentId} ORDER BY n.id`);
  return rows.map(toNote);
}
