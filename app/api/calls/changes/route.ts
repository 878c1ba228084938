import { apiRoute, json } from "@/lib/http/respond";
import { readChanges } from "@/lib/live/feed";
import { changesQueryParameters, parseQuery } from "@/lib/live/schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute("changes", async (request) => {
  const { after, limit } = parseQuery(changesQueryParameters, new URL(request.url).searchParams);
  return json(await readChanges(after, limit));
});
