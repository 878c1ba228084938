import { safeNextPath } from "@/lib/access/next-path";
import { startSsoSignIn } from "@/lib/access/sso";
import { apiRoute } from "@/lib/http/respond";
import { isHttps } from "@/lib/http/request-facts";
import { redirectWithCookies } from "@/lib/http/set-cookies";

export const dynamic = "force-dynamic";

export const GET = apiRoute("sso", "GET", async ({ request, query }) =>
  redirectWithCookies(await startSsoSignIn(safeNextPath(query.next), request.headers, isHttps(request))),
);
