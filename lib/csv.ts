/** One RFC 4180 CSV field: quoted when it holds a quote, comma or line break. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV text: a header row, then one line per row, CRLF-terminated. */
export function csvText(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header.join(","), ...rows.map((row) => row.map(csvCell).join(","))].join("\r\n") + "\r\n";
}
