import { nextStatuses, OPEN_STATUSES } from "@/lib/calls/workflow";
import { SEVERITIES, severityOrFallback, type CallStatus, type Severity } from "@/lib/vocabulary";

/** Open: not yet resolved or failed (the queue's calls). */
export function isOpen(status: string): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

/** The statuses a call may move to next (none for a status this page does not know). */
export function statusOptions(status: string): CallStatus[] {
  return isOpen(status) ? nextStatuses(status as CallStatus) : [];
}

export const STATUS_LABEL: Record<string, string> = {
  active: "Active",
  dispatched: "Dispatched",
  enroute: "En route",
  resolved: "Resolved",
  failed: "Failed",
};

/** The label of a status, or the raw value for one this page does not know. */
export function statusLabel(status: string): string {
  return STATUS_LABEL[status] ?? status;
}

/** 0 is the most urgent: the order of SEVERITIES. */
export const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((level, rank) => [level, rank])) as Record<Severity, number>;

/** A severity outside the scale sorts and draws like the server's fallback (lib/vocabulary.ts). */
export const severityOf = severityOrFallback;

export const SEVERITY_LABEL: Record<Severity, string> = { critical: "Critical", high: "High", moderate: "Moderate" };

/** A vocabulary word as words: "structure_fire" is "structure fire". */
export const inWords = (value: string) => value.replaceAll("_", " ");

export function humanize(value: string): string {
  const text = inWords(value);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
