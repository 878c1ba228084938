import { listAudit } from "@/lib/audit/list";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("audit", "GET", async ({ query }) => json(await listAudit(query)));
