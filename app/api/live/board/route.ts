import { apiRoute, json } from "@/lib/http/respond";
import { readBoard } from "@/lib/board/counts";

export const dynamic = "force-dynamic";

export const GET = apiRoute("board", "GET", async ({ query }) => json(await readBoard(query.exercises!)));
