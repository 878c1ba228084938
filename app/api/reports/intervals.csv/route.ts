import { apiRoute } from "@/lib/http/respond";
import { intervalsCsv, intervalsReport } from "@/lib/reports/intervals";

export const dynamic = "force-dynamic";

export const GET = apiRoute("reportIntervalsCsv", "GET", async ({ query }) =>
  new Response(intervalsCsv(await intervalsReport(query)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="dispatch-intervals.csv"',
      "cache-control": "no-store",
    },
  }),
);
