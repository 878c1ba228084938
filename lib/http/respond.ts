import { log } from "../log";
import { ApiError } from "./api-error";

/**
 * The spec gives each endpoint family its own error body:
 * - "simulation": `error`, `details`, `timestamp`
 * - "calls":      `error`, `message`, `timestamp`, `error_code`
 * - "webhook":    `status: "error"`, `message`, `timestamp`, `error_code`
 */
export type ErrorFormat = "simulation" | "calls" | "webhook";

export function errorBody(error: ApiError, format: ErrorFormat): Record<string, unknown> {
  const timestamp = new Date().toISOString();
  switch (format) {
    case "simulation":
      return { error: error.label, details: error.message, timestamp, error_code: error.code, ...error.extra };
    case "calls":
      return { error: error.label, message: error.message, timestamp, error_code: error.code, ...error.extra };
    case "webhook":
      return { status: "error", message: error.message, timestamp, error_code: error.code, ...error.extra };
  }
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function errorResponse(error: ApiError, format: ErrorFormat): Response {
  return json(errorBody(error, format), { status: error.status, headers: error.headers });
}

/** Unknown failures become a 500 without internals; the details go to the log only. */
export function toErrorResponse(error: unknown, format: ErrorFormat, route: string): Response {
  if (error instanceof ApiError) {
    if (error.status >= 500) log.error({ route, code: error.code, err: error.cause ?? error }, error.message);
    return errorResponse(error, format);
  }
  log.error({ route, err: error }, "unhandled error");
  return errorResponse(
    new ApiError(500, "INTERNAL_ERROR", "Internal error", "The request could not be processed"),
    format,
  );
}

type Handler<Context> = (request: Request, context: Context) => Promise<Response>;

/**
 * Wraps a route handler so every failure answers in the endpoint's documented format. `route`
 * names the endpoint ("simulate", "calls", "call", "webhook", "health", "openapi"): per-endpoint
 * policies (rate limits, access) are looked up by it, so route files stay free of them.
 */
export function apiRoute<Context = unknown>(
  format: ErrorFormat,
  route: string,
  handler: Handler<Context>,
): Handler<Context> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return toErrorResponse(error, format, route);
    }
  };
}
