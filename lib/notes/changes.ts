import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { FeedPosition } from "../feed";
import { NOTE_COLUMNS, type NoteRow, toNote } from "./to-note";
import type { Note } from "./schema";

/** Notes kept or moved after change `after`, in change order, at most `limit` (lib/board/feed-pages.ts merges them with the calls). */
export async function readNoteChanges(db: Pick<Db, "$queryRaw">, after: FeedPosition, limit: number): Promise<{ change: FeedPosition; note: Note }[]> {
  const rows = await db.$queryRaw<(NoteRow & { change_number: bigint })[]>(Prisma.sql`
    SELECT ${Prisma.raw(NOTE_COLUMNS)}, n.change_number FROM incident_notes n
    WHERE n.change_number > ${after} ORDER BY n.change_number LIMIT ${limit}`);
  return rows.map((row) => ({ change: Number(row.change_number), note: toNote(row) }));
}
