import type { Note } from "./schema";

/** An incident_notes row as the notes' queries select it (NOTE_COLUMNS). */
export interface NoteRow {
  id: bigint;
  incident_id: string;
  text: string;
  author_ref: string;
  author_name: string;
  unit_id: string | null;
  unit_call_sign: string | null;
  created_at: Date;
}

export const NOTE_COLUMNS = "n.id, n.incident_id, n.text, n.author_ref, n.author_name, n.unit_id, n.unit_call_sign, n.created_at";

export function toNote(row: NoteRow): Note {
  // author_ref is lib/access/actor.ts actorRef: `user:<id>` or `key:<id>`.
  const separator = row.author_ref.indexOf(":");
  return {
    id: String(row.id),
    incident_id: row.incident_id,
    text: row.text,
    author: { kind: row.author_ref.slice(0, separator) === "user" ? "user" : "key", id: row.author_ref.slice(separator + 1), name: row.author_name },
    unit: row.unit_id === null ? null : { id: row.unit_id, call_sign: row.unit_call_sign ?? "" },
    created_at: row.created_at.toISOString(),
  };
}
