import { apiRoute, json } from "@/lib/http/respond";
import { listDeliveries } from "@/lib/subscriptions/deliveries";

export const dynamic = "force-dynamic";

export const GET = apiRoute("subscriptionDeliveries", "GET", async ({ params, query }) =>
  json(await listDeliveries(params.id, query.limit ?? 100, query.cursor)));
