import { createFirstAdmin, setupNeeded } from "@/lib/access/people";
import { apiRoute, json } from "@/lib/http/respond";
import { requestAddress } from "@/lib/http/request-facts";

export const dynamic = "force-dynamic";

export const GET = apiRoute("setup", "GET", async () => json({ needed: await setupNeeded() }));

export const POST = apiRoute("setup", "POST", async ({ request, body }) =>
  json(await createFirstAdmin(body, requestAddress(request)), { status: 201 }),
);
