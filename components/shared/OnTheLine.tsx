"use client";

import { formatWaiting } from "./format";
import { useNow } from "./use-now";

/** A live call's running time since `since` (Unix seconds), counting every second while it lasts. */
export function RunningTime({ since }: { since: number }) {
  const now = useNow();
  return <span className="on-line-time">{formatWaiting(now / 1000 - since)}</span>;
}

/**
 * A caller still talking to the voice agent (docs/dashboard.md, "Live calls"): "On the line" with
 * the call's running time. The same badge on the queue row, the alert strip, the incident, its
 * calls and the call's own detail.
 */
export function OnTheLine({ since }: { since: number }) {
  return (
    <span className="on-line-badge" data-testid="on-line-badge" title="The caller is still talking to the voice agent">
      On the line <RunningTime since={since} />
    </span>
  );
}

/** Whether a place is still to come: its caller is on the line and has not said where yet ("locating…"). */
export function locating(location: string, onLine: boolean): boolean {
  return onLine && location.trim() === "";
}
