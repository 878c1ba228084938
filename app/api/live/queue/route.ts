import { apiRoute, json } from "@/lib/http/respond";
import { readQueue } from "@/lib/live/queue";
import { parseQuery, queueQueryParameters } from "@/lib/live/schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute("queue", async (request) => {
  const { after, limit } = parseQuery(queueQueryParameters, new URL(request.url).searchParams);
  return json(await readQueue(after, limit));
});
