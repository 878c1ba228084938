import type { IncomingMessage, ServerResponse } from "node:http";
import { openApiAnswer } from "../openapi";
import { endpoints } from "./endpoints";
import { deploymentSecurityHeaders } from "./security-headers";

let securityHeaders: Record<string, string> | undefined;

/**
 * What the production server (scripts/server.ts) answers itself, before Next: GET and HEAD
 * /api/openapi.json, from the document in memory, with the route's body, ETag, 304 and headers.
 * The document is the same for every client and needs neither key nor limit, yet through Next
 * each request costs about 5 ms of CPU on these machines (docs/performance.md), which held it
 * near 150 requests a second. Anything else (other methods, a trailing slash) is left to Next,
 * and answers false.
 */
export function answerBeforeNext(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const url = request.url ?? "";
  const queryAt = url.indexOf("?");
  if ((queryAt < 0 ? url : url.slice(0, queryAt)) !== endpoints.openapi.path) return false;

  securityHeaders ??= Object.fromEntries(deploymentSecurityHeaders().map(({ key, value }) => [key.toLowerCase(), value]));
  const ifNoneMatch = request.headers["if-none-match"];
  const { status, headers, body } = openApiAnswer(ifNoneMatch ?? null);
  const length = body === undefined ? {} : { "content-length": String(body.length) };
  response.writeHead(status, { ...securityHeaders, ...headers, ...length });
  response.end(request.method === "HEAD" ? undefined : body);
  return true;
}
