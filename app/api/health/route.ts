import { checkHealth } from "@/lib/health";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("health", "GET", async () => {
  const report = await checkHealth();
  return json(report, { status: report.status === "ok" ? 200 : 503 });
});
