import { apiRoute, json } from "@/lib/http/respond";
import { readChanges } from "@/lib/board/feed-pages";

export const dynamic = "force-dynamic";

export const GET = apiRoute("changes", "GET", async ({ query }) => json(await readChanges(query.after!, query.limit!)));
