import { revokeKey } from "@/lib/access/keys";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute("key", "DELETE", async ({ params, actor }) => json(await revokeKey(params.id, actor)));
