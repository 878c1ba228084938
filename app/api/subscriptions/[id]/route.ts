import { apiRoute, json } from "@/lib/http/respond";
import { getSubscription } from "@/lib/subscriptions/list";
import { removeSubscription } from "@/lib/subscriptions/remove";
import { updateSubscription } from "@/lib/subscriptions/update";

export const dynamic = "force-dynamic";

export const GET = apiRoute("subscription", "GET", async ({ params }) => json(await getSubscription(params.id)));

export const PATCH = apiRoute("subscription", "PATCH", async ({ params, body, actor }) => json(await updateSubscription(params.id, body, actor)));

export const DELETE = apiRoute("subscription", "DELETE", async ({ params, actor }) => json(await removeSubscription(params.id, actor)));
