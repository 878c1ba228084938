import { createKey, listKeys } from "@/lib/access/keys";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("keys", "GET", async () => json(await listKeys()));

export const POST = apiRoute("keys", "POST", async ({ body, actor }) => json(await createKey(body, actor), { status: 201 }));
