/**
 * CSV (RFC 4180) for every CSV export (calls, the intervals report, the exercise debrief). A
 * spreadsheet may run a cell as a formula ("CSV injection", OWASP): one that starts with a tab, a
 * carriage return or a line feed, or whose first character after any whitespace (spaces, tabs,
 * line breaks, the ideographic space) is `=`, `+`, `-`, `@` or their full-width forms `＝ ＋ － ＠`
 * (which some locales' spreadsheets read as the same). Summaries and locations come from callers
 * and a language model, so such a text cell gets a leading `'` and is quoted, as OWASP advises.
 * Numbers and booleans are written as they are (a longitude stays `-118.5`). A dozen lines written
 * row by row, rather than a dependency that builds whole documents (papaparse's `escapeFormulae`
 * checks the first character only).
 */

const FORMULA_START = /^(?:[\t\r\n]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;
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
