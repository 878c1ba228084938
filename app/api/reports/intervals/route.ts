import { apiRoute, json } from "@/lib/http/respond";
import { intervalsReport } from "@/lib/reports/intervals";

export const dynamic = "force-dynamic";

export const GET = apiRoute("reportIntervals", "GET", async ({ query }) => json(await intervalsReport(query)));
