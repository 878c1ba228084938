import { csvText } from "@/lib/csv";
import type { CallRecord } from "./api";

const COLUMNS: (keyof CallRecord)[] = [
  "conversation_id", "timestamp", "created_at", "emergency_type", "severity", "status", "location",
  "latitude", "longitude", "simulation", "scenario", "scenario_name", "table_name", "caller_phone",
  "duration_secs", "summary",
];

/** RFC 4180 CSV with a header row, one line per call. */
export function callsToCsv(calls: CallRecord[]): string {
  return csvText(COLUMNS, calls.map((call) => COLUMNS.map((column) => call[column])));
}

export function downloadText(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
