/**
 * CSV (RFC 4180) for the calls export. A spreadsheet runs a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return as a formula ("CSV injection"); summaries and locations come from
 * callers and a language model, so such a text cell gets a leading `'` and is quoted, as papaparse's
 * `escapeFormulae` does. Numbers and booleans are written as they are (a longitude stays `-118.5`).
 * A dozen lines written row by row, rather than a dependency that builds whole documents.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  // PostgreSQL text cannot hold NUL; a stray one would end the cell early in C-based readers.
  const text = value.replace(/\0/g, "");
  if (FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF-terminated. */
export function csvLine(values: CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
