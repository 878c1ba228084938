/** Display helpers shared by the dashboard's panels. */

import type { Platform } from "@/lib/vocabulary";
import type { CallRecord } from "./api";

export function formatTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString(undefined, {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

export function formatClock(date: Date): string {
  return date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
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

/** Where a call came from, in one short phrase (map popup and history table). */
/** Each voice-agent platform as the dashboard names it. */
export const PLATFORM_NAMES: Record<Platform, string> = { elevenlabs: "ElevenLabs", vapi: "Vapi", retell: "Retell" };

export function callSource(call: Pick<CallRecord, "simulation" | "scenario_name" | "platform">): string {
  return call.simulation ? (call.scenario_name ?? "Simulated") : `Voice agent (${PLATFORM_NAMES[call.platform] ?? call.platform})`;
}
