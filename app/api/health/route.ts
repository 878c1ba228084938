import { optionalActor } from "@/lib/access/authenticate";
import { getConfig } from "@/lib/config";
import { healthReport } from "@/lib/health/check-readiness";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Open to probes; each check's outcome only to a signed-in person or a key (lib/health). */
export const GET = apiRoute("health", "GET", async ({ request, query }) => {
  const details = (await optionalActor(request.headers, getConfig().API_KEY)) !== undefined;
  const report = await healthReport(query.probe ?? "ready", details);
  return json(report, { status: report.status === "ok" ? 200 : 503 });
});
