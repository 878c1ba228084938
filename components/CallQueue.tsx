"use client";

import { useMemo, useState } from "react";
import { SEVERITIES, type Severity } from "@/lib/vocabulary";
import type { CallRecord } from "./api";
import { humanize, isOpen, SEVERITY_LABEL, SEVERITY_RANK, severityOf } from "./call-status";
import { callerOf, formatWaiting } from "./format";
import { SeverityBadge, severitySvg } from "./SeverityIcon";
import { StatusBadge } from "./StatusBadge";
import { StatusActions } from "./StatusActions";
import { useNow } from "./use-now";

/** Rows drawn at once; the counts cover every open call. */
const SHOWN = 100;
/** How long a newly arrived call stays highlighted. */
const NEW_FOR_MS = 30_000;

function byUrgency(a: CallRecord, b: CallRecord): number {
  const rank = SEVERITY_RANK[severityOf(a.severity)] - SEVERITY_RANK[severityOf(b.severity)];
  return rank || a.timestamp - b.timestamp || a.conversation_id.localeCompare(b.conversation_id);
}

/**
 * When each call was first seen by this page (0 for those already there at load), kept by
 * adjusting state while rendering when the listing changes.
 */
function useArrivals(calls: CallRecord[] | undefined, now: number): Map<string, number> {
  const [state, setState] = useState<{ source: CallRecord[] | null; firstSeen: Map<string, number> }>({
    source: null,
    firstSeen: new Map(),
  });
  if (calls && state.source !== calls) {
    const firstSeen = new Map(state.firstSeen);
    for (const call of calls) {
      if (!firstSeen.has(call.conversation_id)) firstSeen.set(call.conversation_id, state.source === null ? 0 : now);
    }
    setState({ source: calls, firstSeen });
  }
  return state.firstSeen;
}

/** `calls`: every call held; `newest`: the newest page, where arrivals appear (older pages loading later are not news). */
export function CallQueue({ calls, newest, loading, onSelect }: {
  calls: CallRecord[]; newest: CallRecord[] | undefined; loading: boolean; onSelect: (id: string) => void;
}) {
  const now = useNow();
  const open = useMemo(() => calls.filter((call) => isOpen(call.status)).sort(byUrgency), [calls]);
  const counts = useMemo(() => {
    const result = Object.fromEntries(SEVERITIES.map((level) => [level, 0])) as Record<Severity, number>;
    for (const call of open) result[severityOf(call.severity)] += 1;
    return result;
  }, [open]);
  const firstSeen = useArrivals(newest, now);
  const isNew = (id: string) => {
    const seen = firstSeen.get(id) ?? 0;
    return seen > 0 && now - seen < NEW_FOR_MS;
  };
  const newCount = open.filter((call) => isNew(call.conversation_id)).length;

  return (
    <section className="panel queue" aria-labelledby="queue-title">
      <header className="panel-head">
        <h2 id="queue-title">Call queue</h2>
        <span className="queue-total">{open.length.toLocaleString()} open</span>
      </header>
      <ul className="severity-counts" aria-label="Open calls by severity">
        {SEVERITIES.map((level) => (
          <li key={level} className={`count sev-${level}`}>
            <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(level, 18) }} />
            <span className="count-label">{SEVERITY_LABEL[level]}</span>
            <strong data-testid={`count-${level}`}>{counts[level].toLocaleString()}</strong>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {newCount > 0 ? `${newCount} new ${newCount === 1 ? "call" : "calls"} in the queue` : ""}
      </p>
      {loading ? (
        <p className="muted">Loading calls…</p>
      ) : open.length === 0 ? (
        <p className="muted">No open calls.</p>
      ) : (
        <ol className="queue-list" aria-label="Open calls, most urgent first">
          {open.slice(0, SHOWN).map((call) => {
            const fresh = isNew(call.conversation_id);
            return (
              <li
                key={call.conversation_id}
                className={`queue-item sev-${severityOf(call.severity)}${fresh ? " is-new" : ""}`}
                data-call-id={call.conversation_id}
              >
                <div className="queue-row">
                  <SeverityBadge severity={call.severity} />
                  {call.latitude !== null && call.longitude !== null ? (
                    <button type="button" className="link-button queue-title" onClick={() => onSelect(call.conversation_id)}>
                      {humanize(call.emergency_type)}
                      <span className="sr-only">: show on map</span>
                    </button>
                  ) : (
                    // Not geocoded: there is no marker to fly to, so no button that would do nothing.
                    <span className="queue-title">
                      {humanize(call.emergency_type)} <span className="muted">(not on the map)</span>
                    </span>
                  )}
                  {call.exercise_id && <span className="exercise-badge">Exercise</span>}
                  {fresh && <span className="new-badge">New</span>}
                  <span className="waiting" title="Waiting time">
                    <span className="sr-only">Waiting </span>
                    {formatWaiting(now / 1000 - call.timestamp)}
                  </span>
                </div>
                <div className="queue-meta">
                  <StatusBadge status={call.status} />
                  <span className="queue-location">{call.location}</span>
                  <span className="queue-caller" data-testid="queue-caller">{callerOf(call)}</span>
                </div>
                <StatusActions id={call.conversation_id} status={call.status} />
              </li>
            );
          })}
        </ol>
      )}
      {open.length > SHOWN && (
        <p className="muted queue-more">
          Showing the {SHOWN} most urgent of {open.length.toLocaleString()} open calls.
        </p>
      )}
    </section>
  );
}
