import type { ApiError } from "./api-error";

/**
 * Each endpoint family has its own error body (docs/interface.md, "Error formats"):
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
