import { apiRoute, json } from "@/lib/http/respond";
import { replaySubscription } from "@/lib/subscriptions/replay";

export const dynamic = "force-dynamic";

export const POST = apiRoute("subscriptionReplay", "POST", async ({ params, query, actor }) => json(await replaySubscription(params.id, query.after, actor)));
