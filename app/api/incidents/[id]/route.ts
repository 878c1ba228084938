import { apiRoute, json } from "@/lib/http/respond";
import { getIncident } from "@/lib/incidents/detail";
import { updateIncidentStatus } from "@/lib/incidents/status";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incident", "GET", async ({ params }) => json(await getIncident(params.id)));

export const PATCH = apiRoute("incident", "PATCH", async ({ params, body, actor }) =>
  json(await updateIncidentStatus(params.id, body.status, actor)),
);
