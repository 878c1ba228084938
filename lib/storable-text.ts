import { invalidParameter } from "./domain-error";

/**
 * What text a request may hand the domain (docs/security.md, "Text PostgreSQL refuses"):
 * PostgreSQL cannot hold a NUL (U+0000) in `text`, and a lone UTF-16 surrogate has no UTF-8
 * form, so either would reach the database only to fail there as a 500. The registry's shared
 * parsing (lib/http/respond.ts, lib/query-parameters.ts) refuses them first, 400
 * INVALID_PARAMETER, in every path parameter, query parameter and JSON body string.
 */

/** Longest path or query parameter: ids, filters and cursors are far shorter, and each may reach an index lookup. */
export const MAX_PARAMETER_CHARACTERS = 4_096;

export const isStorableText = (text: string): boolean => !text.includes("\u0000") && text.isWellFormed();

const unstorable = (label: string, name: string) =>
  invalidParameter(label, `${name} contains a character that cannot be stored (U+0000 or a lone surrogate)`);

/** A path or query parameter's value: storable, and at most MAX_PARAMETER_CHARACTERS long. */
export function requireStorableParameter(label: string, name: string, value: string): void {
  if (!isStorableText(value)) throw unstorable(label, name);
  if (value.length > MAX_PARAMETER_CHARACTERS) throw invalidParameter(label, `${name} is longer than ${MAX_PARAMETER_CHARACTERS} characters`);
}

/**
 * Every string of a parsed JSON body, object keys included, named by its top-level field. The
 * walk keeps its own stack: a deeply nested body must not exhaust the call stack.
 */
export function requireStorableJson(body: unknown): void {
  const pending: { value: unknown; field: string }[] = [{ value: body, field: "body" }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, field } = next;
    if (typeof value === "string") {
      if (!isStorableText(value)) throw unstorable(`Invalid ${field}`, field);
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push({ value: item, field });
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const itemField = field === "body" ? key : field;
        if (!isStorableText(key)) throw unstorable(`Invalid ${itemField}`, itemField);
        pending.push({ value: item, field: itemField });
      }
    }
  }
}
