import { getConfig } from "@/lib/config";
import { apiRoute, json } from "@/lib/http/respond";
import { readIncidentMap } from "@/lib/board/incident-map";
import { mapRequestFrom } from "@/lib/board/call-map";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidentMap", "GET", async ({ query }) =>
  json(await readIncidentMap(mapRequestFrom(query, getConfig().LIVE_MAP_CLOSED_HOURS))),
);
