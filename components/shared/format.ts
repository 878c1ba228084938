/** Display helpers shared by the dashboard's panels. */

import { type CallSource, PLATFORM_LABELS } from "@/lib/vocabulary";
import type { CallRecord } from "./api";

/**
 * Every date and time the pages show, one format: "Nov 26, 07:05:18 AM", with the year when it is
 * not this year's. `at` is Unix seconds (a call's timestamp) or an ISO 8601 string (the API's other times).
 */
export function formatTime(at: number | string): string {
  const date = typeof at === "number" ? new Date(at * 1000) : new Date(at);
  return date.toLocaleString(undefined, {
    year: date.getFullYear() === new Date().getFullYear() ? undefined : "numeric",
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

export function formatClock(date: Date): string {
  return date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** A time that may not have happened yet (a key never used): "never". */
export function formatTimeOrNever(iso: string | null): string {
  return iso === null ? "never" : formatTime(iso);
}

/** Waiting time as `m:ss` under an hour, `h h mm m` beyond. */
export function formatWaiting(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} m`;
  return `${minutes}:${String(s % 60).padStart(2, "0")}`;
}

/** An incident's number of calls, as its badge says it. */
export function callersLabel(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? "caller" : "callers"}`;
}

/** Each source of calls as the dashboard names it: the voice-agent platforms, and a person who took the call. */
export const PLATFORM_NAMES: Record<CallSource, string> = { ...PLATFORM_LABELS, call_taker: "Call-taker" };

/** Where a call came from, in one short phrase (map popup and history table). */
export function callSource(call: Pick<CallRecord, "simulation" | "scenario_name" | "platform">): string {
  if (call.simulation) return call.scenario_name ?? "Simulated";
  return call.platform === "call_taker" ? PLATFORM_NAMES.call_taker : `Voice agent (${PLATFORM_NAMES[call.platform] ?? call.platform})`;
}
