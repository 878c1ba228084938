import { removeUser, setUserRole } from "@/lib/access/people";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute("user", "PATCH", async ({ params, body, actor }) => json(await setUserRole(params.id, body.role, actor)));

export const DELETE = apiRoute("user", "DELETE", async ({ params, actor }) => {
  await removeUser(params.id, actor);
  return new Response(null, { status: 204 });
});
