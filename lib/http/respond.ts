import { DomainError } from "../domain-error";
import { log } from "../log";
import { ApiError } from "./api-error";
import { errorResponse, type ErrorFormat } from "./error-format";
import { endpoints, type RouteName } from "./endpoints";
import { applyRateLimit, requireAccess } from "./protection";

export { errorBody, errorResponse, json, type ErrorFormat } from "./error-format";

/** Domain errors answer with their code's status; unknown failures become a 500 without internals, the details logged. */
export function toErrorResponse(error: unknown, format: ErrorFormat, route: string): Response {
  const apiError = error instanceof DomainError ? ApiError.fromDomain(error) : error;
  if (apiError instanceof ApiError) {
    if (apiError.status >= 500) log.error({ route, code: apiError.code, err: apiError.cause ?? apiError }, apiError.message);
    return errorResponse(apiError, format);
  }
  log.error({ route, err: error }, "unhandled error");
  return errorResponse(new ApiError("INTERNAL_ERROR", "The request could not be processed"), format);
}

type Handler<Context> = (request: Request, context: Context) => Promise<Response>;

function withHeaders(response: Response, headers: Record<string, string>): Response {
  if (Object.keys(headers).length === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

/**
 * Wraps a route handler so every failure answers in the endpoint's documented format. `route`
 * names the endpoint: its error format, rate limit and API-key requirement come from
 * lib/http/endpoints, so route files stay free of them. Limits are counted before the key is checked, so guessing keys
 * is limited too.
 */
export function apiRoute<Context = unknown>(route: RouteName, handler: Handler<Context>): Handler<Context> {
  const { format } = endpoints[route];
  return async (request, context) => {
    let limitHeaders: Record<string, string> = {};
    let response: Response;
    try {
      limitHeaders = await applyRateLimit(request, route);
      requireAccess(request, route);
      response = await handler(request, context);
    } catch (error) {
      response = toErrorResponse(error, format, route);
    }
    return withHeaders(response, limitHeaders);
  };
}
