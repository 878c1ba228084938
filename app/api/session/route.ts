import { closedSession, openSession } from "@/lib/access/session";
import { apiRoute } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Cookies marked Secure only over HTTPS, so a plain-HTTP LAN deployment still keeps them. */
const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

/** POST {api_key}: 204 with the session cookie; 401 UNAUTHORIZED for a wrong key. */
export const POST = apiRoute("session", "POST", async ({ request, body }) => {
  const cookie = openSession(body.api_key, isHttps(request));
  return new Response(null, { status: 204, headers: cookie ? { "set-cookie": cookie } : {} });
});

/** DELETE: forget the session (sign out). */
export const DELETE = apiRoute("session", "DELETE", async ({ request }) => {
  return new Response(null, { status: 204, headers: { "set-cookie": closedSession(isHttps(request)) } });
});
