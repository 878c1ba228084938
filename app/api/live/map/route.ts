import { getConfig } from "@/lib/config";
import { apiRoute, json } from "@/lib/http/respond";
import { readMap } from "@/lib/live/map";
import { mapQueryParameters, parseQuery } from "@/lib/live/schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute("map", async (request) => {
  const query = parseQuery(mapQueryParameters, new URL(request.url).searchParams);
  const closedHours = query.closed_hours ?? getConfig().LIVE_MAP_CLOSED_HOURS;
  return json(await readMap({ ...query, closedHours }));
});
