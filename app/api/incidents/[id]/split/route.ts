import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { splitCall } from "@/lib/incidents/split";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentSplit", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await splitCall(params.id, body.call_id, actor), (incident) => ({ id: incident.id, status: incident.status, changed: ["calls"] }))),
);
