import { apiRoute, json } from "@/lib/http/respond";
import { createSubscription } from "@/lib/subscriptions/create";
import { listSubscriptions } from "@/lib/subscriptions/list";

export const dynamic = "force-dynamic";

export const GET = apiRoute("subscriptions", "GET", async () => json(await listSubscriptions()));

export const POST = apiRoute("subscriptions", "POST", async ({ body, actor }) => json(await createSubscription(body, actor), { status: 201 }));
