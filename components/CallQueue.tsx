"use client";

import { SEVERITIES, type Severity } from "@/lib/vocabulary";
import type { CallRecord } from "./api";
import { humanize, isOpen, SEVERITY_LABEL, severityOf } from "./call-status";
import { callerOf, formatWaiting } from "./format";
import { SeverityBadge, severitySvg } from "./SeverityIcon";
import { StatusBadge } from "./StatusBadge";
import { StatusActions } from "./StatusActions";
import { useNow } from "./use-now";

/** How long a newly arrived call stays highlighted. */
const NEW_FOR_MS = 30_000;

/**
 * The queue: the server's counts of every open call (the board) above the server's most urgent
 * open calls (a window of the queue, GET /api/live/queue), most urgent first.
 */
export function CallQueue({ calls, openTotal, bySeverity, arrivals, loading, onSelect }: {
  calls: CallRecord[];
  openTotal: number;
  bySeverity: Record<Severity, number> | undefined;
  /** When each call arrived while the page was open. */
  arrivals: Map<string, number>;
  loading: boolean;
  onSelect: (call: CallRecord) => void;
}) {
  const now = useNow();
  // A call just moved to resolved on this page leaves at once, before the server's next answer.
  const open = calls.filter((call) => isOpen(call.status));
  const isNew = (id: string) => {
    const seen = arrivals.get(id) ?? 0;
    return seen > 0 && now - seen < NEW_FOR_MS;
  };
  const newCount = open.filter((call) => isNew(call.conversation_id)).length;

  return (
    <section className="panel queue" aria-labelledby="queue-title">
      <header className="panel-head">
        <h2 id="queue-title">Call queue</h2>
        <span className="queue-total">{openTotal.toLocaleString()} open</span>
      </header>
      <ul className="severity-counts" aria-label="Open calls by severity">
        {SEVERITIES.map((level) => (
          <li key={level} className={`count sev-${level}`}>
            <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(level, 18) }} />
            <span className="count-label">{SEVERITY_LABEL[level]}</span>
            <strong data-testid={`count-${level}`}>{(bySeverity?.[level] ?? 0).toLocaleString()}</strong>
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
          {open.map((call) => {
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
                    <button type="button" className="link-button queue-title" onClick={() => onSelect(call)}>
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
      {openTotal > open.length && open.length > 0 && (
        <p className="muted queue-more">
          Showing the {open.length} most urgent of {openTotal.toLocaleString()} open calls.
        </p>
      )}
    </section>
  );
}
