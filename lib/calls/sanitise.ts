/**
 * What a webhook value may become in a PostgreSQL row (docs/webhook.md, "From payload to row").
 * The platform's content never decides whether a call is stored: text PostgreSQL would refuse is
 * cleaned, numbers outside their column are dropped, oversized text is cut. The payload as
 * received stays in object storage, so nothing is lost by cutting the row's copy.
 */

/** Longest text kept in each column of a webhook record, in UTF-16 code units. */
export const TEXT_LIMITS = {
  agentId: 256,
  summary: 20_000,
  location: 1_000,
  emergencyType: 64,
  callerPhone: 32,
} as const;

/** The geocoder sees at most this much of a location: a real address is far shorter. */
export const GEOCODE_TEXT_LIMIT = 200;

/** A classifying value (severity, status, failure reason) is read from at most this much text. */
export const IDENTIFIER_INPUT_LIMIT = 256;

/** PostgreSQL `integer`. */
export const INT4_MAX = 2_147_483_647;

const REPLACEMENT = "\uFFFD";

/**
 * Text PostgreSQL stores as given: NUL removed (a `text` value cannot hold it), lone surrogates
 * replaced by U+FFFD (they have no UTF-8 form), cut to `maxLength` without splitting a pair.
 */
export function cleanText(value: string, maxLength: number): string {
  // Cut first (with one spare unit so a pair at the edge can be kept whole), so the work is
  // bounded by the limit, not by the payload.
  let text = value.length > maxLength + 1 ? value.slice(0, maxLength + 1) : value;
  text = text.replaceAll("\u0000", "").toWellFormed();
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  // A high surrogate left alone at the end of the cut would become a lone one.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Whether a cleaned text still contains the replacement of a lone surrogate (for logs). */
export const hasReplacement = (text: string) => text.includes(REPLACEMENT);

/**
 * A count or a number of seconds for an `integer` column: rounded, and kept only when it is a
 * finite number from 0 to 2,147,483,647. Anything else (1e308, -1, 2^31, NaN) is no value at all.
 */
export function integerInColumn(value: unknown): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const rounded = Math.round(value);
  return rounded >= 0 && rounded <= INT4_MAX ? rounded : null;
}

/** Lower-case, spaces and hyphens to `_`, read from a bounded prefix of the value. */
export function normaliseIdentifier(value: string): string {
  return value.slice(0, IDENTIFIER_INPUT_LIMIT).trim().toLowerCase().replace(/[\s-]+/g, "_");
}

/**
 * A caller's number in E.164 (`+` and 8 to 15 digits) when it can be read as one: `+` or `00`
 * and digits, or a North American number of 10 digits (or 11 starting with 1) whose area code and
 * exchange start with 2-9, as the NANP numbers them. Separators
 * (spaces, dots, dashes, parentheses) are ignored. Anything else (`anonymous`, a SIP URI) is kept
 * as cleaned text; nothing at all is null.
 */
/** A North American number without its country code: area code and exchange each start with 2-9 (a UK 020... is not one). */
export const NANP_DIGITS = /^[2-9]\d{2}[2-9]\d{6}$/;

export function normalisePhone(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = cleanText(value.trim(), 64).trim();
  if (text === "") return null;
  const compact = text.replace(/[\s().\-/]/g, "");
  const international = /^(?:\+|00)(\d{8,15})$/.exec(compact);
  if (international) return `+${international[1]}`;
  if (NANP_DIGITS.test(compact)) return `+1${compact}`;
  if (compact.startsWith("1") && NANP_DIGITS.test(compact.slice(1))) return `+${compact}`;
  return cleanText(text, TEXT_LIMITS.callerPhone);
}
