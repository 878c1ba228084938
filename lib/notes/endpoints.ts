import { z } from "zod";
import { documentedWriteAnswer } from "../access/write-answer";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  NOTE_MAX_BODY_BYTES, NOTE_MAX_CHARACTERS, noteRequestSchema, noteSchema, notesPageSchema, notesQueryParameters,
  parseNoteRequest,
} from "./schema";

/**
 * An incident's notes (docs/incidents.md, "Notes").
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const noteEndpoints = {
  incidentNotes: {
    path: "/api/incidents/:id/notes",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "listIncidentNotes",
        permission: "read",
        summary: "The incident's notes, newest first, keyset-paginated",
        query: notesQueryParameters,
        responses: { 200: { description: "One page of notes", body: { name: "NotesPage", schema: notesPageSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
      POST: {
        operationId: "addIncidentNote",
        permission: ["dispatch", "train"],
        summary: "Keep a note on the incident (append-only; the author is who asks)",
        description:
          "Notes are kept in the order they arrive, never changed or removed, and carried into the change feed " +
          `(a change with \`note\`). A unit's radio report names the unit (\`unit_id\`). A trainer may write on training incidents only. Text: 1 to ${NOTE_MAX_CHARACTERS} characters; ` +
          `a body over ${NOTE_MAX_BODY_BYTES} bytes is refused with 413.`,
        body: jsonBody({ name: "NoteRequest", schema: noteRequestSchema }, parseNoteRequest, { maxBytes: NOTE_MAX_BODY_BYTES }),
        responses: { 201: { description: "The note as kept (to a caller without `read`: its id and what changed)", body: documentedWriteAnswer("Note", noteSchema) } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
