import type { CallStatus, Severity } from "./api";

/**
 * The status workflow as the API enforces it (decisions.md): forward along
 * active -> dispatched -> enroute -> resolved, skipping allowed, and any open status -> failed.
 * The server stays the judge; this only decides which buttons to offer.
 */
const FORWARD: CallStatus[] = ["active", "dispatched", "enroute", "resolved"];
export const OPEN_STATUSES: readonly string[] = ["active", "dispatched", "enroute"];

export function isOpen(status: string): boolean {
  return OPEN_STATUSES.includes(status);
}

export function nextStatuses(status: string): CallStatus[] {
  const position = FORWARD.indexOf(status as CallStatus);
  if (!isOpen(status) || position < 0) return [];
  return [...FORWARD.slice(position + 1), "failed"];
}

export const STATUS_LABEL: Record<string, string> = {
  active: "Active",
  dispatched: "Dispatched",
  enroute: "En route",
  resolved: "Resolved",
  failed: "Failed",
};

export const SEVERITY_RANK: Record<string, number> = { critical: 0, high: 1, moderate: 2 };

/** Unknown severities (a voice agent may say anything) sort and draw like moderate. */
export function severityOf(value: string): Severity {
  return value === "critical" || value === "high" ? value : "moderate";
}

export const SEVERITY_LABEL: Record<Severity, string> = { critical: "Critical", high: "High", moderate: "Moderate" };

export function humanize(value: string): string {
  const text = value.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
