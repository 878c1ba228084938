import { apiRoute, json } from "@/lib/http/respond";
import { splitCall } from "@/lib/incidents/split";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentSplit", "POST", async ({ params, body, actor }) =>
  json(await splitCall(params.id, body.call_id, actor)),
);
