import { listCalls } from "@/lib/live/list-calls";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("calls", "GET", async ({ query }) => json(await listCalls(query)));
