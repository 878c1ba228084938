import { createHash, timingSafeEqual } from "node:crypto";
import { type FailureReason, normaliseFailureReason } from "../calls/handed-over";
import { cleanText, normaliseIdentifier } from "../calls/sanitise";
import { DomainError } from "../domain-error";

/**
 * Reading the fields of Vapi's and Retell's events leniently: a platform adds fields, drops
 * optional ones and sends numbers as strings, and none of that may cost a 911 call. A value of the
 * wrong type is no value (docs/webhook.md, "From payload to row").
 */

export type Fields = Record<string, unknown>;

/** The value when it is a JSON object, else an empty one. */
export function objectAt(value: unknown): Fields {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : {};
}

/** A finite number, or a numeric string of at most 64 characters; else null. */
export function numberAt(value: unknown): number | null {
  const number = typeof value === "string" && value.trim() !== "" && value.length <= 64 ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : null;
}

/** Text cleaned and cut to `maxLength` (NUL removed, lone surrogates replaced); "" when not a string. */
export function textAt(value: unknown, maxLength: number): string {
  return typeof value === "string" ? cleanText(value.trim(), maxLength).trim() : "";
}

/** A number of whole seconds the integer columns hold, from a count of `unit` seconds; else null. */
export function secondsIn(value: number | null, unit = 1): number | null {
  if (value === null) return null;
  const seconds = Math.round(value * unit);
  return seconds >= 0 && seconds <= 2_147_483_647 ? seconds : null;
}

const LATEST_MS = 253_402_300_799_000; // 9999-12-31T23:59:59Z

/** An instant from Unix milliseconds (number or numeric string) or an ISO 8601 string, in years 1970-9999; else null. */
export function instantAt(value: unknown): Date | null {
  const ms = numberAt(value) ?? (typeof value === "string" && value.length <= 64 ? Date.parse(value) : NaN);
  return Number.isFinite(ms) && ms >= 0 && ms <= LATEST_MS ? new Date(Math.floor(ms)) : null;
}

/** Links longer than this are not stored (the archived payload keeps them). */
const URL_LIMIT = 2048;

/** An http(s) link as sent, when it is one; else null. */
export function linkAt(...values: unknown[]): string | null {
  for (const value of values) {
    if (typeof value !== "string" || value.length > URL_LIMIT || !/^https?:\/\//i.test(value)) continue;
    if (URL.canParse(value)) return value;
  }
  return null;
}

/** A platform's own reason for a call that never connected, as Mayday's failure reason. */
export function failureReasonOf(raw: string): FailureReason {
  const reason = normaliseIdentifier(raw);
  if (reason.includes("busy")) return "busy";
  if (/no_answer|did_not_answer|no-answer/.test(reason)) return "no-answer";
  return normaliseFailureReason(reason);
}

/** The summary of a call that never connected, naming the platform's reason. */
export const notConnectedSummary = (reason: string) => `Call could not be connected (${textAt(reason, 200) || "unknown"}).`;

/**
 * Whether a secret sent in a header is the configured one, in constant time whatever the
 * lengths (both are hashed first, so a length never shows).
 */
export function sameSecret(sent: string, secret: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(secret));
}

/** 400 MISSING_FIELDS naming the fields. */
export function missingFields(paths: string[]): DomainError {
  const unique = [...new Set(paths)];
  return new DomainError("MISSING_FIELDS", `Missing or invalid fields: ${unique.join(", ")}`);
}

/** The agent's arguments, read leniently: an object, or a JSON string of one (Vapi sends either). */
export function toolArguments(value: unknown): Fields {
  if (typeof value === "string") {
    try {
      return objectAt(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return objectAt(value);
}
