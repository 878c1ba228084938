"use client";

import { useBacklog } from "./use-backlog";

/** Tells dispatchers the board is behind: calls were accepted but are not on it yet. */
export function BacklogBanner() {
  const pending = useBacklog();
  if (!pending) return null;
  return (
    <div className="banner" role="status" data-testid="backlog-banner">
      {pending === 1 ? "1 call waiting to be recorded" : `${pending.toLocaleString("en-US")} calls waiting to be recorded`}: the
      database was unavailable; they are safe and will appear here once it is back.
    </div>
  );
}
