import { apiRoute, json } from "@/lib/http/respond";
import { readIncidentQueue } from "@/lib/live/incidents";

export const dynamic = "force-dynamic";

export const GET = apiRoute("liveIncidents", "GET", async ({ query }) =>
  json(await readIncidentQueue(query.after, query.limit!, query.exercises!)),
);
