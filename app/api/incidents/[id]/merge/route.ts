import { apiRoute, json } from "@/lib/http/respond";
import { mergeIncidents } from "@/lib/incidents/merge";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentMerge", "POST", async ({ params, body, actor }) =>
  json(await mergeIncidents(params.id, body.other_id, actor)),
);
