import type { z } from "zod";

/**
 * The one typed error of the domain: a code and a message for the caller, never an HTTP status.
 * lib/http/api-error.ts maps each code to its status; the route's error format writes the body.
 */
export type DomainErrorCode =
  | "INVALID_PARAMETER"
  | "INVALID_JSON"
  | "MISSING_FIELDS"
  | "INVALID_SIGNATURE"
  | "UNAUTHORIZED"
  // Authenticated, but the role or key scopes lack the permission (or a cross-site write).
  | "FORBIDDEN"
  | "NOT_FOUND"
  // The request clashes with what exists (an email already taken, a first administrator already made).
  | "CONFLICT"
  // An account's sign-in attempts used up for the lock-out window.
  | "TOO_MANY_ATTEMPTS"
  | "INVALID_TRANSITION"
  // A merge that would put training (simulated, exercise) and real calls in one incident.
  | "TRAINING_MIX"
  // A correction whose location is less exact than the call's, not confirmed (confirm_lower_precision).
  | "PRECISION_LOWERED"
  // A correction naming a street the centre's GIS does not have in a community it covers, not confirmed (confirm_coarse).
  | "STREET_NOT_IN_GIS"
  // A unit assigned while not available (busy on another incident, out of service), not confirmed.
  | "UNIT_UNAVAILABLE"
  // A unit moved to a state of an assignment (en route, on scene...) while it serves no incident.
  | "UNIT_NOT_ASSIGNED"
  // An incident moved to dispatched (or en route) with no unit on it and no dispatch_reason.
  | "DISPATCH_WITHOUT_UNIT"
  // An undo of a status move that is not the incident's latest, not the asker's, too old, or overtaken by another change.
  | "UNDO_REFUSED"
  // A live control action (a transfer) on a call that is not on the line.
  | "CALL_NOT_LIVE"
  // A transfer on a platform that offers no way to ask for one from outside the call (Retell, ElevenLabs).
  | "TRANSFER_NOT_SUPPORTED"
  // A webhook body too large for what it turns out to be (only a recording may pass 5 MB).
  | "PAYLOAD_TOO_LARGE"
  | "STORAGE_ERROR"
  | "DATABASE_ERROR"
  // The database answered too slowly under load (a time limit, a lock wait, the pool): the work was
  // rolled back and the same request may succeed in a moment.
  | "DATABASE_BUSY"
  | "GEOCODING_ERROR"
  // The centre's identity provider did not answer as it should (discovery, keys, tokens).
  | "IDENTITY_PROVIDER_ERROR";

export interface DomainErrorOptions {
  /** Short label replacing the code's usual one (the body's "error" field, e.g. "Invalid limit"). */
  label?: string;
  /** Fields added to the body as they are (e.g. available_scenarios). */
  extra?: Record<string, unknown>;
  /** What caused it: logged with a server-side failure, never put in the body. */
  cause?: unknown;
}

export class DomainError extends Error {
  readonly label?: string;
  readonly extra: Record<string, unknown>;

  constructor(
    readonly code: DomainErrorCode,
    /** What went wrong, for the caller (the body's "message" or "details"). */
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DomainError";
    this.label = options.label;
    this.extra = options.extra ?? {};
  }
}

export const invalidParameter = (label: string, message: string) =>
  new DomainError("INVALID_PARAMETER", message, { label });

export const notFound = (message: string) => new DomainError("NOT_FOUND", message);

/** SQLSTATEs of work cut short by load: statement or lock time limit, connections used up, a serialization conflict or deadlock. */
const BUSY_SQLSTATES = new Set(["57014", "55P03", "53300", "40001", "40P01"]);
/** Prisma's codes for the same: pool time limit, a transaction's start or time limit, a write conflict, too many connections. */
const BUSY_PRISMA_CODES = new Set(["P2024", "P2028", "P2034", "P2037"]);
/** node-postgres's pool, when no connection came free within its time limit. */
const POOL_TIMEOUT = "timeout exceeded when trying to connect";

/** Whether a database failure is load, not a broken database: read through Prisma's wrapping of the driver's error. */
function isBusy(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const { code, message, meta, cause } = error as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: unknown }; cause?: unknown };
  if (typeof code === "string" && (BUSY_SQLSTATES.has(code) || BUSY_PRISMA_CODES.has(code))) return true;
  if (message === POOL_TIMEOUT) return true;
  return isBusy(meta?.driverAdapterError, depth + 1) || isBusy(cause, depth + 1);
}

/**
 * A failure of the database: DATABASE_BUSY when it was load (the caller may try again shortly),
 * DATABASE_ERROR otherwise; the cause is kept for the log, never shown to the caller.
 */
export const databaseError = (cause: unknown) =>
  isBusy(cause)
    ? new DomainError("DATABASE_BUSY", "The call store is too busy to answer in time; nothing was changed, try again in a moment", { cause })
    : new DomainError("DATABASE_ERROR", "The call store is not available", { cause });

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A request body's bytes parsed as JSON, or INVALID_JSON: the one reading of a JSON body. Bytes
 * that are not UTF-8 are `refuse`d (an API request: 400, nothing changes) or, for a voice
 * platform's delivery, which is never refused for its content (docs/webhook.md, "From payload to
 * row"), each bad sequence is read as U+FFFD (`replace`; the archive keeps the bytes as received).
 */
export function parseJson(body: Uint8Array, invalidUtf8: "refuse" | "replace"): unknown {
  let text: string;
  if (invalidUtf8 === "replace") text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  else {
    try {
      text = strictUtf8.decode(body);
    } catch {
      throw new DomainError("INVALID_JSON", "Request body is not valid UTF-8");
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError("INVALID_JSON", "Request body is not valid JSON");
  }
}

/** A JSON body parsed with its zod schema, or INVALID_PARAMETER naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".") || "body";
  throw invalidParameter(`Invalid ${field}`, `${field}: ${issue.message}`);
}
