import { exportCalls } from "@/lib/calls/export";
import { apiRoute } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("callsExport", "GET", async ({ query, request }) => {
  const { filename, body } = await exportCalls(query, request.signal);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
});
