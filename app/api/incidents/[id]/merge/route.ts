import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { mergeIncidents } from "@/lib/incidents/merge";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentMerge", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await mergeIncidents(params.id, body.other_id, actor), (incident) => ({ id: incident.id, status: incident.status, changed: ["calls"] }))),
);
