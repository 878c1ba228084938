import { apiRoute, json } from "@/lib/http/respond";
import { getIncident } from "@/lib/incidents/detail";
import { updateIncident } from "@/lib/incidents/update";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incident", "GET", async ({ params }) => json(await getIncident(params.id)));

export const PATCH = apiRoute("incident", "PATCH", async ({ params, body, actor }) => json(await updateIncident(params.id, body, actor)));
