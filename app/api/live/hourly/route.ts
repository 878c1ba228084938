import { parseListQuery } from "@/lib/calls/filters";
import { apiRoute, json } from "@/lib/http/respond";
import { readHourly } from "@/lib/live/board";

export const dynamic = "force-dynamic";

/** The history's chart: GET /api/calls's filters (limit and offset are ignored). */
export const GET = apiRoute("hourly", async (request) => {
  const { filters } = parseListQuery(new URL(request.url).searchParams);
  return json(await readHourly(filters));
});
