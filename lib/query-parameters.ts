import { z } from "zod";
import { invalidParameter } from "./domain-error";
import { requireStorableParameter } from "./storable-text";

/**
 * One query parameter: the schema that validates it (its output type is what OpenAPI documents),
 * and the error it answers when the value is not acceptable.
 */
export interface QueryParameter<S extends z.ZodType = z.ZodType> {
  schema: S;
  description: string;
  label: string;
  message: string;
  /** The request is refused (INVALID_PARAMETER, with `message`) without it; OpenAPI marks it required. */
  required?: boolean;
}

export type QueryParameters = Record<string, QueryParameter>;

/** Each parameter's validated value; its default, or undefined, when it is not given (never for a required one). */
export type QueryValues<Q extends QueryParameters> = {
  [K in keyof Q]: Q[K]["required"] extends true ? z.output<Q[K]["schema"]> : z.output<Q[K]["schema"]> | undefined;
};

export const queryParameter = <D extends QueryParameter>(definition: D) => definition;

/** A keyset page's `cursor`: the id (a UUID) of the previous page's last row, its `next_cursor`. */
export const idCursorParameter = queryParameter({
  schema: z.string().regex(/^[0-9a-f-]{36}$/).optional(),
  description: "next_cursor of the previous page",
  label: "Invalid cursor",
  message: "cursor must be a next_cursor value",
});

/**
 * Validates a query string against its parameters, in their declared order, throwing
 * INVALID_PARAMETER for the first bad one, or missing when required. One value per parameter; an
 * empty value counts as not given.
 * Text PostgreSQL refuses, or too long a value, is refused whatever the parameter (lib/storable-text.ts).
 */
export function parseQueryParameters<Q extends QueryParameters>(params: URLSearchParams, definitions: Q): QueryValues<Q> {
  const values: Record<string, unknown> = {};
  for (const [name, { schema, label, message, required }] of Object.entries(definitions)) {
    const given = params.getAll(name).filter((value) => value !== "");
    if (given.length > 1) throw invalidParameter(label, `${name} must be given only once`);
    if (required && given.length === 0) throw invalidParameter(label, message);
    if (given[0] !== undefined) requireStorableParameter(label, name, given[0]);
    const result = schema.safeParse(given[0]);
    if (result.success) values[name] = result.data;
    else if (given[0] !== undefined) throw invalidParameter(label, message);
  }
  return values as QueryValues<Q>;
}
