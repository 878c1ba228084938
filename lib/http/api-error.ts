import type { ErrorCode } from "../contract/error-codes";
import { DomainError } from "../domain-error";

interface HttpMapping {
  status: number;
  /** The body's "error" field unless the error brings its own. */
  label: string;
  headers?: Record<string, string>;
}

/** Every error code's HTTP status: the one place a domain error becomes HTTP. */
export const errorStatus: Record<ErrorCode, HttpMapping> = {
  INVALID_PARAMETER: { status: 400, label: "Invalid parameter" },
  INVALID_JSON: { status: 400, label: "Invalid JSON" },
  MISSING_FIELDS: { status: 400, label: "Missing fields" },
  INVALID_SIGNATURE: { status: 401, label: "Invalid signature" },
  UNAUTHORIZED: { status: 401, label: "Unauthorized", headers: { "www-authenticate": 'Bearer realm="mayday"' } },
  FORBIDDEN: { status: 403, label: "Forbidden" },
  NOT_FOUND: { status: 404, label: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, label: "Method not allowed" },
  INVALID_TRANSITION: { status: 409, label: "Invalid transition" },
  CONFLICT: { status: 409, label: "Conflict" },
  TRAINING_MIX: { status: 409, label: "Training and real mixed" },
  PRECISION_LOWERED: { status: 409, label: "Lower precision" },
  STREET_NOT_IN_GIS: { status: 409, label: "Street not in the centre's GIS" },
  UNIT_UNAVAILABLE: { status: 409, label: "Unit unavailable" },
  UNIT_NOT_ASSIGNED: { status: 409, label: "Unit not assigned" },
  DISPATCH_WITHOUT_UNIT: { status: 409, label: "No unit dispatched" },
  UNDO_REFUSED: { status: 409, label: "Undo refused" },
  CALL_NOT_LIVE: { status: 409, label: "Call not on the line" },
  TRANSFER_NOT_SUPPORTED: { status: 409, label: "Transfer not supported" },
  PAYLOAD_TOO_LARGE: { status: 413, label: "Payload too large" },
  RANGE_NOT_SATISFIABLE: { status: 416, label: "Range not satisfiable" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, label: "Unsupported media type" },
  RATE_LIMITED: { status: 429, label: "Rate limit exceeded" },
  TOO_MANY_ATTEMPTS: { status: 429, label: "Too many attempts" },
  STORAGE_ERROR: { status: 500, label: "Storage error" },
  DATABASE_ERROR: { status: 500, label: "Database error" },
  DATABASE_BUSY: { status: 503, label: "Database busy", headers: { "retry-after": "2" } },
  GEOCODING_ERROR: { status: 500, label: "Geocoding error" },
  IDENTITY_PROVIDER_ERROR: { status: 502, label: "Identity provider error" },
  INTERNAL_ERROR: { status: 500, label: "Internal error" },
  SERVICE_UNAVAILABLE: { status: 503, label: "Service unavailable" },
};

/** An error as HTTP: status, label and headers from errorStatus. */
export class ApiError extends Error {
  readonly status: number;
  readonly label: string;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    /** What went wrong, for the caller (the body's "message" or "details"). */
    message: string,
    /** Fields added to the body as they are. */
    readonly extra: Record<string, unknown> = {},
    options: { label?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const mapping = errorStatus[code];
    this.name = "ApiError";
    this.status = mapping.status;
    this.label = options.label ?? mapping.label;
    this.headers = { ...mapping.headers, ...options.headers };
  }

  static fromDomain(error: DomainError): ApiError {
    return new ApiError(error.code, error.message, error.extra, { label: error.label, cause: error.cause });
  }
}
