import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { addNote } from "@/lib/notes/add";
import { listNotes } from "@/lib/notes/list";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidentNotes", "GET", async ({ params, query }) => json(await listNotes(params.id, query)));

export const POST = apiRoute("incidentNotes", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await addNote(params.id, body, actor), (note) => ({ id: note.id, changed: ["notes"] })), { status: 201 }),
);
