import type { DomainErrorCode } from "../domain-error";

/** Codes only the HTTP layer raises: they concern the request as HTTP, not the domain. */
export type HttpErrorCode =
  | "UNSUPPORTED_MEDIA_TYPE"
  | "METHOD_NOT_ALLOWED"
  | "RANGE_NOT_SATISFIABLE"
  | "RATE_LIMITED"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL_ERROR";

/** Every code an endpoint may answer; lib/http/api-error.ts maps each to its HTTP status. */
export type ErrorCode = DomainErrorCode | HttpErrorCode;
