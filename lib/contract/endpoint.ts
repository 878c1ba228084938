import type { z } from "zod";
import type { QueryParameters } from "../query-parameters";
import type { RateLimitPolicy } from "../rate-limit/types";
import type { ErrorCode } from "./error-codes";
import type { Requirement } from "./permissions";

/**
 * The shape of one endpoint's contract: each domain declares its endpoints in its endpoints.ts,
 * and lib/http/endpoints.ts composes them into the one registry (docs/endpoints.md says how to add
 * one). Validation, 405s and the OpenAPI document all read it.
 */

/**
 * Each endpoint family has its own error body (docs/interface.md, "Error formats"; lib/http/error-format.ts writes it):
 * - "simulation": `error`, `details`, `timestamp`
 * - "calls":      `error`, `message`, `timestamp`, `error_code`
 * - "webhook":    `status: "error"`, `message`, `timestamp`, `error_code`
 */
export type ErrorFormat = "simulation" | "calls" | "webhook";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A zod schema as the OpenAPI document shows it: named ones become components/schemas entries. */
export interface DocumentedSchema {
  schema: z.ZodType;
  name?: string;
}

/** A JSON body apiRoute reads (Content-Type, size limit, JSON) and hands to `parse`. */
export interface JsonBody<T> {
  kind: "json";
  documented: DocumentedSchema;
  /** The body as the handler's input; throws a DomainError (usually INVALID_PARAMETER) when it is not acceptable. */
  parse: (json: unknown) => T;
  maxBytes?: number;
}

/** A body the handler reads itself (e.g. to verify a signature over the raw bytes): documented only. */
export interface RawBody {
  kind: "raw";
  documented: DocumentedSchema;
  /** Why apiRoute leaves the body alone, and who validates it. */
  readBy: string;
}

export interface ResponseSpec {
  description: string;
  body?: DocumentedSchema;
  /** The body's media type; application/json unless given (e.g. text/csv with `schema: z.string()`). */
  contentType?: string;
}

export interface Operation {
  operationId: string;
  /**
   * Who may call it: "public", or the permission (or any of several) a person's role or a key's
   * scopes must grant (lib/access/roles.ts). Shown in the OpenAPI document.
   */
  permission: Requirement;
  summary: string;
  description?: string;
  query?: QueryParameters;
  /** Request headers worth documenting; apiRoute does not read them. */
  headers?: Record<string, { description: string; required: boolean }>;
  body?: JsonBody<unknown> | RawBody;
  /** The answers the operation gives itself (success and otherwise), by status. */
  responses: Record<number, ResponseSpec>;
  /**
   * The error codes the operation's own code can throw. Those of the endpoint's protection
   * (UNAUTHORIZED and FORBIDDEN unless public, RATE_LIMITED, ...), of a JSON body and INTERNAL_ERROR are added for it.
   */
  errors: readonly ErrorCode[];
}

export interface Endpoint {
  /** Path under the origin, `:name` for one path segment (a route folder `[name]`). */
  path: string;
  /** The body format of every error the endpoint answers (ErrorFormat above). */
  errorFormat: ErrorFormat;
  protection: {
    rateLimit?: RateLimitPolicy;
  };
  /** The path's `:name` segments, validated before the handler runs. */
  params?: z.ZodObject;
  /** The methods the route file exports; HEAD (with GET) and OPTIONS are answered by Next itself. */
  methods: Partial<Record<Method, Operation>>;
}

export const jsonBody = <T>(
  documented: DocumentedSchema,
  parse: (json: unknown) => T,
  options: { maxBytes?: number } = {},
): JsonBody<T> => ({ kind: "json", documented, parse, ...options });

export const rawBody = (documented: DocumentedSchema, readBy: string): RawBody => ({ kind: "raw", documented, readBy });
