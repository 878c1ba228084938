import { finishSsoSignIn } from "@/lib/access/sso";
import { apiRoute } from "@/lib/http/respond";
import { isHttps, requestAddress } from "@/lib/http/request-facts";
import { redirectWithCookies } from "@/lib/http/set-cookies";

export const dynamic = "force-dynamic";

export const GET = apiRoute("ssoCallback", "GET", async ({ request }) =>
  redirectWithCookies(await finishSsoSignIn(request, requestAddress(request), isHttps(request))),
);
