import { apiRoute, json } from "@/lib/http/respond";
import { acknowledgeAllAlerts } from "@/lib/board/acknowledge-alerts";

export const dynamic = "force-dynamic";

export const POST = apiRoute("liveAlertsAcknowledge", "POST", async ({ body, actor }) =>
  json(await acknowledgeAllAlerts(body.kind, body.exercise, actor)),
);
