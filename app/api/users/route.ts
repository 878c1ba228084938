import { createUser, listUsers } from "@/lib/access/people";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("users", "GET", async () => json(await listUsers()));

export const POST = apiRoute("users", "POST", async ({ body, actor }) => json(await createUser(body, actor), { status: 201 }));
