import { apiRoute, json } from "@/lib/http/respond";
import { readQueue } from "@/lib/board/call-queue";

export const dynamic = "force-dynamic";

export const GET = apiRoute("queue", "GET", async ({ query }) => json(await readQueue(query.after, query.limit!, query.exercises!)));
