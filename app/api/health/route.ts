import { hasApiKey } from "@/lib/access/api-key";
import { getConfig } from "@/lib/config";
import { healthReport } from "@/lib/health";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Open to probes; each check's outcome only with the API key (lib/health). */
export const GET = apiRoute("health", "GET", async ({ request, query }) => {
  const report = await healthReport(query.probe ?? "ready", hasApiKey(request.headers, getConfig().API_KEY));
  return json(report, { status: report.status === "ok" ? 200 : 503 });
});
