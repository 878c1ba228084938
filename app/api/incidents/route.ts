import { apiRoute, json } from "@/lib/http/respond";
import { listIncidents } from "@/lib/incidents/list";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidents", "GET", async ({ query }) => json(await listIncidents(query)));
