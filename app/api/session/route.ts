import { signIn, signOut } from "@/lib/access/session";
import { apiRoute, json } from "@/lib/http/respond";
import { withCookies } from "@/lib/http/set-cookies";
import { isHttps, requestAddress } from "@/lib/http/request-facts";

export const dynamic = "force-dynamic";

export const POST = apiRoute("session", "POST", async ({ request, body }) => {
  const { person, cookies } = await signIn(body, request.headers, requestAddress(request), isHttps(request));
  return withCookies(json(person), cookies);
});

export const DELETE = apiRoute("session", "DELETE", async ({ request }) =>
  withCookies(new Response(null, { status: 204 }), await signOut(request.headers, requestAddress(request), isHttps(request))),
);
