/**
 * The status workflow (docs/interface.md), in one place: forward along active -> dispatched ->
 * enroute -> resolved (skipping allowed), any non-final status -> failed; resolved and failed
 * are final. Pure functions: the API enforces it, the dashboard offers its buttons by it.
 */
import { STATUSES, type CallStatus } from "../vocabulary";

/** The forward path; any status may skip ahead along it. */
const FORWARD: readonly CallStatus[] = ["active", "dispatched", "enroute", "resolved"];
const FINAL: readonly CallStatus[] = ["resolved", "failed"];

export function canTransition(from: CallStatus, to: CallStatus): boolean {
  if (FINAL.includes(from)) return false;
  if (to === "failed") return true;
  return FORWARD.indexOf(to) > FORWARD.indexOf(from);
}

export function nextStatuses(from: CallStatus): CallStatus[] {
  return STATUSES.filter((to) => canTransition(from, to));
}

/** Statuses a call can still leave: the dispatcher's open calls (queue, board, map). */
export const OPEN_STATUSES: readonly CallStatus[] = STATUSES.filter((status) => nextStatuses(status).length > 0);
/** Final statuses. */
export const CLOSED_STATUSES: readonly CallStatus[] = FINAL;
