/**
 * The one typed error of the API. Domain code throws it; lib/http/respond turns it into the body
 * format of the endpoint that was called.
 */
export type ErrorCode =
  | "INVALID_PARAMETER"
  | "INVALID_JSON"
  | "MISSING_FIELDS"
  | "INVALID_SIGNATURE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "PAYLOAD_TOO_LARGE"
  | "METHOD_NOT_ALLOWED"
  | "NOT_FOUND"
  | "INVALID_TRANSITION"
  | "RANGE_NOT_SATISFIABLE"
  | "UNAUTHORIZED"
  | "RATE_LIMITED"
  | "STORAGE_ERROR"
  | "DATABASE_ERROR"
  | "GEOCODING_ERROR"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL_ERROR";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    /** Short label, the spec's "error" field (e.g. "Invalid limit"). */
    readonly label: string,
    /** What went wrong, for the caller (the spec's "message" or "details"). */
    message: string,
    /** Fields added to the body as they are (e.g. available_scenarios). */
    readonly extra: Record<string, unknown> = {},
    /** Headers the response carries (e.g. Retry-After, Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** `error` with what caused it attached: logged with a 500, never put in the body. */
export function withCause(error: ApiError, cause: unknown): ApiError {
  error.cause = cause;
  return error;
}

export const invalidParameter = (label: string, message: string) =>
  new ApiError(400, "INVALID_PARAMETER", label, message);

export const notFound = (message: string) => new ApiError(404, "NOT_FOUND", "Not found", message);

export const databaseError = () =>
  new ApiError(500, "DATABASE_ERROR", "Database error", "The call store is not available");
