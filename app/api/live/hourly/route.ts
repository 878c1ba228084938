import { filterQueryFrom } from "@/lib/calls/filters";
import { apiRoute, json } from "@/lib/http/respond";
import { readHourly } from "@/lib/board/counts";

export const dynamic = "force-dynamic";

export const GET = apiRoute("hourly", "GET", async ({ query }) => json(await readHourly(filterQueryFrom(query).filters, query.exercises!)));
