import { apiRoute, json } from "@/lib/http/respond";
import { listResponsePlans } from "@/lib/units/plans";

export const dynamic = "force-dynamic";

export const GET = apiRoute("responsePlans", "GET", async () => json(await listResponsePlans()));
