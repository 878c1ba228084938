import type { z } from "zod";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { parseQueryParameters, type QueryParameters, type QueryValues } from "../query-parameters";
import { requireStorableJson, requireStorableParameter } from "../storable-text";
import { ApiError } from "./api-error";
import { entityTag, matchesEntityTag, readsConditionally } from "./conditional";
import { readJsonBody } from "./body";
import type { Endpoint, JsonBody, Method, Operation } from "../contract/endpoint";
import { endpoints, type RouteName } from "./endpoints";
import { errorBody, errorResponse } from "./error-format";
import type { Actor } from "../access/actor";
import { applyRateLimit, authorize } from "./protection";

export { errorBody, errorResponse, json } from "./error-format";

/** Domain errors answer with their code's status; unknown failures become a 500 without internals, the details logged. */
export function toApiError(error: unknown, route: string): ApiError {
  const apiError = error instanceof DomainError ? ApiError.fromDomain(error) : error;
  if (apiError instanceof ApiError) {
    if (apiError.status >= 500) log.error({ route, code: apiError.code, err: apiError.cause ?? apiError }, apiError.message);
    return apiError;
  }
  log.error({ route, err: error }, "unhandled error");
  return new ApiError("INTERNAL_ERROR", "The request could not be processed");
}

/** The operation a request's method calls (HEAD is GET's). */
function operationFor(endpoint: Endpoint, method: string): Operation | undefined {
  return endpoint.methods[(method === "HEAD" ? "GET" : method) as Method];
}

/**
 * The endpoint's rate limit (counted before credentials are checked, so guessing keys and
 * passwords is limited too), then who may call the operation. Answers the actor (undefined on a
 * public operation).
 */
async function protect(headers: Headers, method: string, endpoint: Endpoint, limitHeaders: Record<string, string>): Promise<Actor | undefined> {
  Object.assign(limitHeaders, await applyRateLimit(headers, endpoint));
  const operation = operationFor(endpoint, method);
  // A method the registry does not declare is answered 405 before this (proxy.ts); never open by default.
  return authorize(headers, method, operation?.permission ?? "admin");
}

/** A JSON answer before it is HTTP: what the production server's direct path (lib/http/direct-answers.ts) writes. */
export interface JsonAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** `work`'s result as guardRoute would answer it, for a server that is not Next: status 200 or the error's. */
export async function guardedAnswer(
  route: RouteName,
  method: Method,
  headers: Headers,
  work: (actor: Actor | undefined) => Promise<unknown>,
): Promise<JsonAnswer> {
  const endpoint: Endpoint = endpoints[route];
  const limitHeaders: Record<string, string> = {};
  try {
    const actor = await protect(headers, method, endpoint, limitHeaders);
    return { status: 200, headers: limitHeaders, body: await work(actor) };
  } catch (error) {
    const apiError = toApiError(error, route);
    return { status: apiError.status, headers: { ...limitHeaders, ...apiError.headers }, body: errorBody(apiError, endpoint.errorFormat) };
  }
}

/** The second argument Next passes a route handler. */
interface RouteContext {
  params?: Promise<Record<string, string | string[] | undefined>>;
}

type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;
type GuardedHandler = (request: Request, context: RouteContext | undefined, actor: Actor | undefined) => Promise<Response>;

type EndpointOf<R extends RouteName> = (typeof endpoints)[R];
type MethodOf<R extends RouteName> = keyof EndpointOf<R>["methods"] & Method;
type OperationOf<R extends RouteName, M extends MethodOf<R>> = EndpointOf<R>["methods"][M];

function withHeaders(response: Response, headers: Record<string, string>): Response {
  if (Object.keys(headers).length === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

/**
 * The request's query, path parameters and JSON body, validated as the operation declares them;
 * text PostgreSQL refuses is refused in any of them first (lib/storable-text.ts).
 */
async function parseInput(endpoint: Endpoint, operation: Operation, request: Request, context: RouteContext | undefined, actor: Actor | undefined) {
  const query = operation.query ? parseQueryParameters(new URL(request.url).searchParams, operation.query) : {};
  let params = {};
  if (endpoint.params) {
    const given = (await context?.params) ?? {};
    for (const [name, value] of Object.entries(given)) {
      if (typeof value === "string") requireStorableParameter(`Invalid ${name}`, name, value);
    }
    const parsed = endpoint.params.safeParse(given);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new DomainError("INVALID_PARAMETER", issue.message, { label: `Invalid ${String(issue.path[0])}` });
    }
    params = parsed.data;
  }
  let body;
  if (operation.body?.kind === "json") {
    const json = await readJsonBody(request, operation.body.maxBytes);
    requireStorableJson(json);
    body = operation.body.parse(json);
  }
  return { request, query, params, body, actor };
}

/** A JSON GET answer with its ETag, or 304 without a body when If-None-Match names it (lib/http/conditional.ts). */
async function answeredConditionally(request: Request, response: Response): Promise<Response> {
  if (!readsConditionally(request.method) || response.status !== 200 || response.headers.has("etag")) return response;
  if (!response.headers.get("content-type")?.startsWith("application/json")) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set("etag", entityTag(body));
  if (!matchesEntityTag(request.headers.get("if-none-match"), headers.get("etag")!)) return new Response(body, { status: 200, headers });
  headers.delete("content-length");
  return new Response(null, { status: 304, headers });
}

/** `handler` behind the endpoint's protection (see protect), every failure answered in the endpoint's error format. */
export function guardRoute(route: RouteName, handler: GuardedHandler): RouteHandler {
  const endpoint: Endpoint = endpoints[route];
  return async (request, context) => {
    const limitHeaders: Record<string, string> = {};
    let response: Response;
    try {
      const actor = await protect(request.headers, request.method, endpoint, limitHeaders);
      response = await answeredConditionally(request, await handler(request, context, actor));
    } catch (error) {
      response = errorResponse(toApiError(error, route), endpoint.errorFormat);
    }
    return withHeaders(response, limitHeaders);
  };
}

/** What apiRoute hands a route handler: the request and its validated parts. */
export interface RouteInput<E extends Endpoint, O> {
  request: Request;
  query: O extends { query: infer Q extends QueryParameters } ? QueryValues<Q> : Record<string, never>;
  params: E extends { params: infer P extends z.ZodObject } ? z.output<P> : Record<string, never>;
  body: O extends { body: JsonBody<infer T> } ? T : undefined;
  /** Who is asking (undefined on a public operation). */
  actor: O extends { permission: "public" } ? undefined : Actor;
}

/**
 * The handler of one method of one endpoint in lib/http/endpoints: guarded as guardRoute does,
 * with query, path parameters and JSON body validated as the registry declares them. The
 * handler gets the validated input and calls the domain.
 */
export function apiRoute<R extends RouteName, M extends MethodOf<R>>(
  route: R,
  method: M,
  handler: (input: RouteInput<EndpointOf<R>, OperationOf<R, M>>) => Promise<Response> | Response,
): RouteHandler {
  const endpoint: Endpoint = endpoints[route];
  const operation = endpoint.methods[method];
  if (!operation) throw new Error(`${method} ${endpoint.path} is not declared in lib/http/endpoints.ts`);
  return guardRoute(route, async (request, context, actor) => {
    const input = await parseInput(endpoint, operation, request, context, actor);
    return handler(input as RouteInput<EndpointOf<R>, OperationOf<R, M>>);
  });
}
