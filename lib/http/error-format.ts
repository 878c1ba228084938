import type { ErrorFormat } from "../contract/endpoint";
import type { ApiError } from "./api-error";

/** An error as the body of its endpoint's format (ErrorFormat, lib/contract/endpoint.ts). */
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
  // Unless the route says how long its answer may be kept (the street map's), it is not.
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function errorResponse(error: ApiError, format: ErrorFormat): Response {
  return json(errorBody(error, format), { status: error.status, headers: error.headers });
}
