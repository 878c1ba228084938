import { once } from "node:events";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { listCalls } from "../board/list-calls";
import { getConfig } from "../config";
import { platformAdapters } from "../voice-platforms/adapters";
import { webhookRoute } from "../voice-platforms/endpoints";
import { log } from "../log";
import { openApiAnswer } from "./openapi";
import { parseQueryParameters } from "../query-parameters";
import { nodeBodyChunks } from "./body";
import { appendPeer } from "./client-address";
import { openStreamAnswer } from "./change-stream";
import { acceptsGzip } from "./compressed-stream";
import { entityTag, matchesEntityTag, readsConditionally } from "./conditional";
import type { Method } from "../contract/endpoint";
import { endpoints, type RouteName } from "./endpoints";
import { guardedAnswer, type JsonAnswer } from "./respond";
import { reachedOverHttps } from "./request-facts";
import { API_SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "./security-headers";
import { PLATFORMS } from "../vocabulary";
import { acceptWebhook } from "./webhook";

const securityHeaders: Record<string, string> = Object.fromEntries(API_SECURITY_HEADERS.map(({ key, value }) => [key.toLowerCase(), value]));

/** The request's headers as the route code reads them (the node:http names are already lower case). */
function webHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of [value].flat()) headers.append(name, one);
  }
  return headers;
}

function answerOpenApi(request: IncomingMessage, response: ServerResponse): void {
  const ifNoneMatch = request.headers["if-none-match"];
  const { status, headers, body } = openApiAnswer(ifNoneMatch ?? null);
  const length = body === undefined ? {} : { "content-length": String(body.length) };
  response.writeHead(status, { ...securityHeaders, ...headers, ...length });
  response.end(request.method === "HEAD" ? undefined : body);
}

const gzipped = promisify(gzip);

/** Smaller answers go as they are, as Next's compression leaves them. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * `work` behind the endpoint's protection, answered as its route file answers (guardedAnswer),
 * without Next; gzipped as Next would when the client accepts it (a page of calls is tens of KB).
 */
async function answerJson(request: IncomingMessage, response: ServerResponse, route: RouteName, work: (headers: Headers) => Promise<unknown>): Promise<void> {
  const headers = webHeaders(request);
  await writeJson(response, headers, await guardedAnswer(route, request.method as Method, headers, () => work(headers)), request.method);
}

async function writeJson(response: ServerResponse, requestHeaders: Headers, answer: JsonAnswer, method?: string): Promise<void> {
  let body = Buffer.from(JSON.stringify(answer.body));
  // A read's ETag, and 304 when the client already has this answer (as guardRoute answers through Next).
  const etag = readsConditionally(method) && answer.status === 200 ? entityTag(body) : undefined;
  const headers = {
    ...securityHeaders,
    ...answer.headers,
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    vary: "Accept-Encoding",
    ...(etag ? { etag } : {}),
  };
  if (etag && matchesEntityTag(requestHeaders.get("if-none-match"), etag)) {
    response.writeHead(304, headers).end();
    return;
  }
  const compress = body.length >= COMPRESS_FROM_BYTES && acceptsGzip(requestHeaders);
  if (compress) body = await gzipped(body);
  response.writeHead(answer.status, {
    ...headers,
    ...(compress ? { "content-encoding": "gzip" } : {}),
    "content-length": String(body.length),
  });
  response.end(body);
}

/** GET /api/calls/stream behind its protection; gzipped, event by event, for a client that accepts it. */
async function answerStream(request: IncomingMessage, response: ServerResponse, search: string): Promise<void> {
  const headers = webHeaders(request);
  const gone = new AbortController();
  response.on("close", () => gone.abort());
  let opened: ReturnType<typeof openStreamAnswer> | undefined;
  const answer = await guardedAnswer("stream", "GET", headers, async () => {
    const { after } = parseQueryParameters(new URLSearchParams(search), endpoints.stream.methods.GET.query);
    opened = openStreamAnswer(headers, after, gone.signal, true);
    return null;
  });
  if (!opened) return writeJson(response, headers, answer);
  response.writeHead(200, { ...securityHeaders, ...answer.headers, ...opened.headers });
  const reader = opened.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (response.destroyed) break;
    if (!response.write(next.value)) await Promise.race([once(response, "drain"), once(response, "close")]);
  }
  await reader.cancel().catch(() => undefined);
  response.end();
}

/** The operations answered here: each does what its route file does once protected. */
const directOperations = new Map<string, (request: IncomingMessage, response: ServerResponse, search: string) => Promise<void>>([
  // Every platform's webhook (lib/voice-platforms), each behind its own endpoint's protection.
  ...PLATFORMS.map(
    (platform) =>
      [
        `POST ${endpoints[webhookRoute(platform)].path}`,
        (request: IncomingMessage, response: ServerResponse) =>
          answerJson(request, response, webhookRoute(platform), (headers) =>
            acceptWebhook(platform, headers, nodeBodyChunks(request, platformAdapters[platform].maxBodyBytes)),
          ),
      ] as const,
  ),
  [`GET ${endpoints.stream.path}`, answerStream],
  [
    `GET ${endpoints.calls.path}`,
    (request, response, search) =>
      answerJson(request, response, "calls", async () =>
        listCalls(parseQueryParameters(new URLSearchParams(search), endpoints.calls.methods.GET.query)),
      ),
  ],
]);

/**
 * What the production server (scripts/server.ts) answers itself, before Next, because Next's
 * request handling costs more CPU than the work (docs/performance.md, issue 17):
 * - GET and HEAD /api/openapi.json, from the document in memory, with the route's body, ETag, 304
 *   and headers (about 5 ms of CPU per request through Next);
 * - POST /api/voiceagent-webhook (and each other platform's), the endpoint a surge hits, and GET /api/calls, the listing every
 *   client polls: their route files' work (acceptWebhook, listCalls) behind the same protection,
 *   errors and body (guardedAnswer), the webhook's body read straight from the socket;
 * - GET /api/calls/stream, every dashboard's change stream, gzipped event by event (Next drops a
 *   route's Content-Encoding).
 * Anything else (other methods, a trailing slash) is left to Next, and answers false. The server
 * has already appended the socket peer to `x-forwarded-for`, as it does for Next.
 */
export function answerBeforeNext(request: IncomingMessage, response: ServerResponse): boolean {
  const url = request.url ?? "";
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path === endpoints.openapi.path && (request.method === "GET" || request.method === "HEAD")) {
    answerOpenApi(request, response);
    return true;
  }
  const operation = directOperations.get(`${request.method} ${path}`);
  if (operation) {
    operation(request, response, queryAt < 0 ? "" : url.slice(queryAt + 1)).catch((error: unknown) => {
      // Only writing the answer can fail here (the client went away): guardedAnswer answers the rest.
      log.warn({ err: error }, "answer not sent");
      response.destroy();
    });
    return true;
  }
  return false;
}

/**
 * The production server's handling of every request (scripts/server.ts): the socket peer appended
 * to `x-forwarded-for` (lib/http/client-address.ts), Strict-Transport-Security set on the answer
 * when the request came over HTTPS (kept by Next and by the answers above, which add their headers
 * to it), then the answer here or Next's (`handle`).
 */
export function productionListener(handle: RequestListener): RequestListener {
  return (request, response) => {
    request.headers["x-forwarded-for"] = appendPeer(request.headers["x-forwarded-for"], request.socket.remoteAddress);
    const encrypted = (request.socket as Partial<TLSSocket>).encrypted === true;
    if (reachedOverHttps(encrypted, request.headers["x-forwarded-proto"], getConfig().TRUST_PROXY)) {
      response.setHeader(STRICT_TRANSPORT_SECURITY.key, STRICT_TRANSPORT_SECURITY.value);
    }
    if (answerBeforeNext(request, response)) return;
    void handle(request, response);
  };
}
