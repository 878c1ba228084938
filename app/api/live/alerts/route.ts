import { readAlerts } from "@/lib/board/alerts";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("liveAlerts", "GET", async ({ query }) => json(await readAlerts(query.exercise)));
