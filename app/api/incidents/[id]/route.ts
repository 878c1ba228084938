import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { getIncident } from "@/lib/incidents/detail";
import { updateIncident } from "@/lib/incidents/update";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incident", "GET", async ({ params }) => json(await getIncident(params.id)));

export const PATCH = apiRoute("incident", "PATCH", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await updateIncident(params.id, body, actor), (incident) => ({ id: incident.id, status: incident.status, changed: Object.keys(body) }))),
);
