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
 * Next copies a request's body for the proxy (holding it in memory, and cutting it at 10 MB),
 * so a webhook request that carries a body never goes through it: a recording is tens of MB
 * (docs/webhook.md, "Body limits"). Such a request with a method the webhook does not take gets
 * Next's own empty 405.
 */
export const config = {
  matcher: [
    "/api/((?!voiceagent-webhook).*)",
    {
      source: "/api/voiceagent-webhook",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    {
      source: "/api/voiceagent-webhook/vapi",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    {
      source: "/api/voiceagent-webhook/retell",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};
