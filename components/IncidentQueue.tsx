"use client";

import { SEVERITIES, type Severity } from "@/lib/vocabulary";
import type { LiveIncident } from "./api";
import { humanize, isOpen, SEVERITY_LABEL, severityOf } from "./call-status";
import { CallerLink } from "./CallerLink";
import { callersLabel, formatWaiting } from "./format";
import { SeverityBadge, severitySvg } from "./SeverityIcon";
import { StatusBadge } from "./StatusBadge";
import { IncidentStatusActions } from "./StatusActions";
import { useNow } from "./use-now";
import { precisionLabel } from "./precision";
import { isStreetLevel } from "@/lib/geocoding/precision";

/** How long an incident with a newly arrived call stays highlighted. */
const NEW_FOR_MS = 30_000;

/**
 * The queue: the server's counts of every open call and open incident (the board) above the
 * server's most urgent open incidents (a window of GET /api/live/incidents): highest severity
 * first, then the longest waiting. Each row: its callers, severity, latest call's summary, wait.
 */
export function IncidentQueue({ incidents, openCalls, openIncidents, bySeverity, arrivals, alerts, loading, selected, onSelect }: {
  incidents: LiveIncident[];
  openCalls: number;
  openIncidents: number;
  bySeverity: Record<Severity, number> | undefined;
  /** When each call arrived while the page was open. */
  arrivals: Map<string, number>;
  /** Whether an incident's new call alerts (use-alerts.ts): its entry flashes while the call is new. */
  alerts: (incident: LiveIncident) => boolean;
  loading: boolean;
  selected: string | null;
  onSelect: (incident: LiveIncident) => void;
}) {
  const now = useNow();
  // An incident just moved to resolved on this page leaves at once, before the server's next answer.
  const open = incidents.filter((incident) => isOpen(incident.status));
  const isNew = (incident: LiveIncident) => {
    const seen = arrivals.get(incident.latest_call.conversation_id) ?? 0;
    return seen > 0 && now - seen < NEW_FOR_MS;
  };
  const newCount = open.filter(isNew).length;

  return (
    <section className="panel queue" aria-labelledby="queue-title">
      <header className="panel-head">
        <h2 id="queue-title">Incident queue</h2>
        <span className="queue-totals">
          <span className="queue-total" title="Open calls">{openCalls.toLocaleString()} open</span>
          {" · "}
          <span className="incident-total" data-testid="incident-total" title="Open incidents">
            {openIncidents.toLocaleString()} {openIncidents === 1 ? "incident" : "incidents"}
          </span>
        </span>
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
        {newCount > 0 ? `${newCount} ${newCount === 1 ? "incident has" : "incidents have"} a new call` : ""}
      </p>
      {loading ? (
        <p className="muted">Loading incidents…</p>
      ) : open.length === 0 ? (
        <p className="muted">No open incidents.</p>
      ) : (
        <ol className="queue-list" aria-label="Open incidents, most urgent first">
          {open.map((incident) => {
            const fresh = isNew(incident);
            const latest = incident.latest_call;
            return (
              <li
                key={incident.id}
                className={`queue-item sev-${severityOf(incident.severity)}${fresh ? " is-new" : ""}${fresh && alerts(incident) ? " is-alerting" : ""}${selected === incident.id ? " is-selected" : ""}`}
                data-incident-id={incident.id}
                data-latest-call-id={latest.conversation_id}
              >
                <div className="queue-row">
                  <SeverityBadge severity={incident.severity} />
                  <button type="button" className="link-button queue-title" onClick={() => onSelect(incident)}>
                    {humanize(incident.emergency_type)}
                    <span className="sr-only">: show its calls{incident.latitude !== null ? " and its place on the map" : ""}</span>
                  </button>
                  <span className="caller-count" data-testid="caller-count" title="Calls about this incident">
                    {callersLabel(incident.call_count)}
                  </span>
                  {latest.exercise_id && <span className="exercise-badge">Exercise</span>}
                  {fresh && <span className="new-badge">New</span>}
                  <span className="waiting" title="Waiting since its first call">
                    <span className="sr-only">Waiting </span>
                    {formatWaiting(now / 1000 - Date.parse(incident.first_call_at) / 1000)}
                  </span>
                </div>
                <div className="queue-meta">
                  <StatusBadge status={incident.status} />
                  <span className="queue-location">
                    {incident.location}
                    {incident.latitude === null ? (
                      <span className="muted"> (not on the map)</span>
                    ) : (
                      !isStreetLevel(incident.location_precision) && (
                        <span className="muted"> ({precisionLabel(incident.location_precision)})</span>
                      )
                    )}
                  </span>
                  <CallerLink className="queue-caller" phone={latest.caller_phone} testId="queue-caller" />
                </div>
                <p className="queue-summary" data-testid="latest-summary">{latest.summary}</p>
                <IncidentStatusActions id={incident.id} status={incident.status} training={latest.exercise_id !== null} />
              </li>
            );
          })}
        </ol>
      )}
      {openIncidents > open.length && open.length > 0 && (
        <p className="muted queue-more">
          Showing the {open.length} most urgent of {openIncidents.toLocaleString()} open incidents.
        </p>
      )}
    </section>
  );
}
