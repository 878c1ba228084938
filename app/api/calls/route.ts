import { parseListQuery } from "@/lib/calls/filters";
import { listCalls } from "@/lib/calls/list";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("calls", async (request) => {
  const query = parseListQuery(new URL(request.url).searchParams);
  return json(await listCalls(query));
});
