import { z } from "zod";
import { invalidParameter } from "../domain-error";
import { queryParameter } from "../query-parameters";

/**
 * The zod schemas of incident notes (docs/incidents.md, "Notes"). No database import: the endpoint
 * registry loads this.
 */

/** A note is a line of narrative ("units from station 12 sent"), not a document. */
export const NOTE_MAX_CHARACTERS = 4_000;
/** Bodies above this are refused with 413 before they are read whole (4,000 characters escaped fit). */
export const NOTE_MAX_BODY_BYTES = 32 * 1024;

export const noteSchema = z.object({
  id: z.string().meta({ description: "The note's id: notes of one incident are numbered in the order they were kept" }),
  incident_id: z.string(),
  text: z.string(),
  author: z.object({
    kind: z.enum(["user", "key"]),
    id: z.string().meta({ description: "The person's id, the scoped key's id, or API_KEY" }),
    name: z.string().meta({ description: "The person's or key's name when the note was written" }),
  }),
  unit: z
    .object({ id: z.string(), call_sign: z.string().meta({ description: "As the unit was named when the note was kept" }) })
    .nullable()
    .meta({ description: "The unit whose radio report the note is (its crew's words, written by the author); null for the author's own note" }),
  created_at: z.string().meta({ description: "ISO 8601 UTC time the note was kept" }),
});
export type Note = z.infer<typeof noteSchema>;

export const noteRequestSchema = z.object({
  text: z.string().meta({ description: `What was decided or done, 1 to ${NOTE_MAX_CHARACTERS} characters (surrounding spaces dropped)` }),
  unit_id: z.string().min(1).max(100).optional().meta({ description: "A unit's radio report: the unit whose crew said it (404 when there is none), named in the note" }),
});

export interface NoteRequest {
  text: string;
  unitId: string | null;
}

export function parseNoteRequest(body: unknown): NoteRequest {
  const parsed = noteRequestSchema.safeParse(body);
  if (!parsed.success) {
    if (parsed.error.issues[0].path[0] === "unit_id") throw invalidParameter("Invalid unit_id", "unit_id must be a unit's id");
    throw invalidParameter("Invalid text", "text is required: a string");
  }
  const text = parsed.data.text.trim();
  if (text.length === 0) throw invalidParameter("Invalid text", "text must not be empty");
  if (text.length > NOTE_MAX_CHARACTERS) throw invalidParameter("Invalid text", `text must be at most ${NOTE_MAX_CHARACTERS} characters`);
  return { text, unitId: parsed.data.unit_id ?? null };
}

export const notesQueryParameters = {
  before: queryParameter({
    schema: z.string().regex(/^\d{1,18}$/),
    description: "The `next` of the previous page: notes older than it. Absent: from the newest.",
    label: "Invalid cursor",
    message: "before must be the next value of a previous page",
  }),
  limit: queryParameter({
    schema: z.codec(z.string().regex(/^\d{1,4}$/), z.int().min(1).max(200), { decode: Number, encode: String }).default(50),
    description: "Notes per page, 1 to 200.",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 200",
  }),
};

export const notesPageSchema = z.object({
  notes: z.array(noteSchema).meta({ description: "Newest first" }),
  next: z.string().nullable().meta({ description: "Pass as `before` for older notes; null when there are none" }),
});
export type NotesPage = z.infer<typeof notesPageSchema>;
