import { apiRoute, json } from "@/lib/http/respond";
import { addNote } from "@/lib/notes/add";
import { listNotes } from "@/lib/notes/list";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidentNotes", "GET", async ({ params, query }) => json(await listNotes(params.id, query)));

export const POST = apiRoute("incidentNotes", "POST", async ({ params, body, actor }) =>
  json(await addNote(params.id, body.text, actor), { status: 201 }),
);
