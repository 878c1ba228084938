import { NextResponse, type NextRequest } from "next/server";
import { ApiError } from "./lib/http/api-error";
import { allowedMethods, declaredMethods, endpointForPath } from "./lib/http/endpoints";
import { errorResponse } from "./lib/http/error-format";

/**
 * Next answers a method a route file does not export with an empty 405. This gives it the
 * endpoint's documented error body and an `Allow` header, from the endpoint registry;
 * everything else passes through.
 */
export function proxy(request: NextRequest): Response {
  const endpoint = endpointForPath(request.nextUrl.pathname);
  if (!endpoint) return NextResponse.next();
  const allow = allowedMethods(endpoint);
  if (allow.includes(request.method)) return NextResponse.next();
  const error = new ApiError(
    "METHOD_NOT_ALLOWED",
    `${request.method} is not allowed on ${endpoint.path}; use ${declaredMethods(endpoint).join(" or ")}`,
    {},
    { headers: { allow: allow.join(", ") } },
  );
  return errorResponse(error, endpoint.errorFormat);
}

/**
 * Next copies a request's body for the proxy (holding it in memory, and cutting it at 10 MB,
 * `experimental.proxyClientMaxBodySize`), so a request that carries a body never goes through it
 * where a body may be larger: the webhook's (a recording is tens of MB, docs/webhook.md, "Body
 * limits") and a GIS file's (up to GIS_IMPORT_MAX_BYTES, streamed into the import: docs/geocoding.md).
 * Such a request with a method the endpoint does not take gets Next's own empty 405.
 */
export const config = {
  matcher: [
    "/api/((?!voiceagent-webhook|gis$).*)",
    {
      source: "/api/gis",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    {
      source: "/api/voiceagent-webhook",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    {
      source: "/api/voiceagent-webhook/:platform",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};
