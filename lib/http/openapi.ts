import { createHash } from "node:crypto";
import { SESSION_COOKIE } from "../vocabulary";
import { ROLE_PERMISSIONS, ROLES } from "../access/roles";
import type { Permission, Requirement } from "../contract/permissions";
import { z } from "zod";
import type { ErrorCode } from "../contract/error-codes";
import { errorStatus } from "./api-error";
import type { DocumentedSchema, Endpoint, ErrorFormat, Method, Operation } from "../contract/endpoint";
import { declaredMethods, endpoints } from "./endpoints";
import { errorBodySchemas } from "./error-schemas";
import { matchesEntityTag } from "./conditional";

/**
 * GET /api/openapi.json: an OpenAPI 3.1 document generated from the endpoint registry
 * (lib/http/endpoints.ts), whose zod schemas also validate the requests and type the responses,
 * so it cannot drift from the code. Built once per process and served from memory.
 */

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what a request sends or a response carries. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // The document declares the dialect once (OpenAPI 3.1's default is 2020-12).
  const generated: JsonSchema = z.toJSONSchema(schema, { io, unrepresentable: "throw" });
  delete generated.$schema;
  return generated;
}

const errorSchemaNames: Record<ErrorFormat, string> = {
  calls: "CallsError",
  simulation: "SimulationError",
  webhook: "WebhookError",
};

/** Collects named schemas into components/schemas; one name, one schema. */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly sources = new Map<string, z.ZodType>();

  use({ schema, name }: DocumentedSchema, io: "input" | "output"): JsonSchema {
    if (!name) return jsonSchema(schema, io);
    const known = this.sources.get(name);
    if (known && known !== schema) throw new Error(`Two different schemas are named ${name}`);
    if (!known) {
      this.sources.set(name, schema);
      this.schemas[name] = jsonSchema(schema, io);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
}

const jsonContent = (schema: JsonSchema, contentType = "application/json") => ({ [contentType]: { schema } });

/** The codes an operation can answer: its own, its protection's, its body's, and the 500 of the unexpected. */
function errorCodes(endpoint: Endpoint, operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(operation.errors);
  if (operation.permission !== "public") {
    codes.add("UNAUTHORIZED");
    codes.add("FORBIDDEN");
  }
  const policy = endpoint.protection.rateLimit;
  if (policy) codes.add("RATE_LIMITED");
  if (policy?.whenStoreDown === "refuse") codes.add("SERVICE_UNAVAILABLE");
  if (operation.body?.kind === "json") {
    for (const code of ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_JSON"] as const) codes.add(code);
  }
  // Text PostgreSQL refuses, in any string the registry parses (lib/storable-text.ts).
  if (endpoint.params || operation.query || operation.body?.kind === "json") codes.add("INVALID_PARAMETER");
  // Every database failure may be load instead (lib/domain-error.ts databaseError).
  if (codes.has("DATABASE_ERROR")) codes.add("DATABASE_BUSY");
  codes.add("INTERNAL_ERROR");
  return [...codes];
}

/** A GET whose success is JSON is read conditionally (lib/http/conditional.ts): it documents If-None-Match and 304. */
function readConditionally(method: Method, operation: Operation): boolean {
  const success = operation.responses[200];
  return method === "GET" && success?.body !== undefined && (success.contentType ?? "application/json") === "application/json";
}

function operationObject(endpoint: Endpoint, method: Method, operation: Operation, components: Components): Record<string, unknown> {
  const conditional = readConditionally(method, operation);
  const headers = {
    ...(conditional ? { "if-none-match": { description: "An ETag of an earlier answer: 304 without a body while the answer is unchanged", required: false } } : {}),
    ...operation.headers,
  };
  const parameters = [
    ...Object.entries(operation.query ?? {}).map(([name, parameter]) => ({
      name,
      in: "query",
      required: parameter.required ?? false,
      description: parameter.description,
      schema: jsonSchema(parameter.schema, "output"),
    })),
    ...Object.entries(headers).map(([name, header]) => ({
      name,
      in: "header",
      required: header.required,
      description: header.description,
      schema: { type: "string" },
    })),
  ];

  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(operation.responses)) {
    responses[status] = spec.body
      ? { description: spec.description, content: jsonContent(components.use(spec.body, "output"), spec.contentType) }
      : { description: spec.description };
  }
  if (conditional) responses[304] ??= { description: "Unchanged since the ETag named in If-None-Match: no body (docs/interface.md, \"Conditional reads\")" };
  const errorSchema = components.use(
    { name: errorSchemaNames[endpoint.errorFormat], schema: errorBodySchemas[endpoint.errorFormat] },
    "output",
  );
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(endpoint, operation)) {
    const { status } = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (responses[status]) continue;
    const description = codes.map((code) => `${errorStatus[code].label} (${code})`).join("; ");
    responses[status] = { description, content: jsonContent(errorSchema) };
  }

  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: [operation.description, permissionNote(operation.permission)].filter(Boolean).join("\n\n"),
    "x-permission": operation.permission,
    ...(operation.permission === "public" ? {} : { security: [{ bearer: [] }, { session: [] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? { requestBody: { required: true, content: jsonContent(components.use(operation.body.documented, "input")) } }
      : {}),
    responses,
  };
}

/** Who may call an operation, in words: roles that hold the permission, and keys with it among their scopes. */
function permissionNote(requirement: Requirement): string {
  if (requirement === "public") return "Public: no credentials.";
  const anyOf: readonly Permission[] = typeof requirement === "string" ? [requirement] : requirement;
  const roles = ROLES.filter((role) => anyOf.some((permission) => ROLE_PERMISSIONS[role].includes(permission)));
  return `Permission: ${anyOf.join(" or ")} (roles: ${roles.join(", ")}; or a key with that scope).`;
}

/** The path's `:name` segments as OpenAPI path parameters. */
function pathParameters(endpoint: Endpoint): Record<string, unknown>[] {
  if (!endpoint.params) return [];
  return Object.entries(endpoint.params.shape).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema as z.ZodType, "input");
    return { name, in: "path", required: true, ...(description ? { description } : {}), schema: rest };
  });
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const components = new Components();
  const paths: Record<string, unknown> = {};
  for (const endpoint of Object.values(endpoints) as Endpoint[]) {
    const item: Record<string, unknown> = {};
    const parameters = pathParameters(endpoint);
    if (parameters.length > 0) item.parameters = parameters;
    for (const method of declaredMethods(endpoint)) {
      item[method.toLowerCase()] = operationObject(endpoint, method, endpoint.methods[method]!, components);
    }
    paths[endpoint.path.replace(/:(\w+)/g, "{$1}")] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Mayday emergency-call service",
      version: "1.0.0",
      description: "Disaster-call simulation, call listing and status workflow, and voice-agent webhook intake.",
    },
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "API_KEY (an administrator's key) or a scoped key from POST /api/keys" },
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "A person's session (POST /api/session)" },
      },
    },
  };
}

interface ServedDocument {
  /** UTF-8, encoded once. */
  body: Buffer;
  etag: string;
}

let served: ServedDocument | undefined;

/** The document as served: serialised, encoded and hashed once, since the registry does not change at run time. */
function servedDocument(): ServedDocument {
  if (!served) {
    const body = Buffer.from(JSON.stringify(buildOpenApiDocument()));
    served = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
  }
  return served;
}

export interface DocumentAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** Absent for a 304. */
  body?: Buffer;
}

/** 200 with the document, or 304 when If-None-Match names its ETag. */
export function openApiAnswer(ifNoneMatch: string | null): DocumentAnswer {
  const { body, etag } = servedDocument();
  const headers = { etag, "cache-control": "no-cache" };
  if (matchesEntityTag(ifNoneMatch, etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" }, body };
}

export function openApiResponse(request: Request): Response {
  const { status, headers, body } = openApiAnswer(request.headers.get("if-none-match"));
  return new Response(body ? new Uint8Array(body) : null, { status, headers });
}
