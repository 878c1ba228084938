import { z } from "zod";
import { invalidParameter } from "./domain-error";
import { requireStorableParameter } from "./storable-text";

/** A query text as an integer from `min` to `max` (at most 15 digits). */
export const integerText = (min: number, max: number) =>
  z.codec(z.string().regex(/^\d{1,15}$/), z.int().min(min).max(max), { decode: Number, encode: String });

/** A query text as a decimal number from `min` to `max`. */
export const decimalText = (min: number, max: number) =>
  z.codec(z.string().regex(/^-?\d{1,3}(\.\d{1,20})?$/), z.number().min(min).max(max), { decode: Number, encode: String });

/**
 * The earliest instant a time parameter may name (the calls' and reports' date bounds, the audit's
 * from and to): PostgreSQL has no year 0 (ISO 8601's 0000, which JavaScript reads), so an earlier
 * time is the parameter's 400, not a query that fails in the database as a 500.
 */
export const EARLIEST_INSTANT_MS = Date.parse("0001-01-01T00:00:00Z");

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

const coordinate = (name: string, description: string, min: number, max: number) =>
  queryParameter({ schema: decimalText(min, max), description, label: "Invalid parameter", message: `${name} is required: a number from ${min} to ${max}` });

/** A map's viewport: the live map and the incident map (lib/board/schema.ts), the offline map's place names (lib/geocoding/map-places-schema.ts). */
export const viewportParameters = {
  west: coordinate("west", "West longitude of the viewport.", -540, 540),
  south: coordinate("south", "South latitude of the viewport.", -90, 90),
  east: coordinate("east", "East longitude of the viewport.", -540, 540),
  north: coordinate("north", "North latitude of the viewport.", -90, 90),
  zoom: queryParameter({
    schema: integerText(0, 22),
    description: "Map zoom level (Web Mercator, 256-pixel tiles), 0 to 22.",
    label: "Invalid parameter",
    message: "zoom is required: an integer from 0 to 22",
  }),
};
