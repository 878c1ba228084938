import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { undoIncidentStatus } from "@/lib/incidents/undo-status";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentUndoStatus", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await undoIncidentStatus(params.id, body.change_id, actor), (incident) => ({ id: incident.id, status: incident.status, changed: ["status"] }))),
);
