import { getConfig } from "@/lib/config";
import { apiRoute, json } from "@/lib/http/respond";
import { mapRequestFrom, readMap } from "@/lib/board/call-map";

export const dynamic = "force-dynamic";

export const GET = apiRoute("map", "GET", async ({ query }) =>
  json(await readMap(mapRequestFrom(query, getConfig().LIVE_MAP_CLOSED_HOURS))),
);
