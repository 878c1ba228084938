"use client";

import type { AlertIncident } from "./api";
import { humanize, severityOf } from "./call-status";
import { formatWaiting } from "./format";
import { useMayAct } from "./person";
import { severitySvg } from "./SeverityIcon";
import type { AlertState } from "./use-alerts";
import { useAcknowledge } from "./use-calls";
import { useNow } from "./use-now";

/** What a new alert says: a new incident, or how many callers joined it since it was last acknowledged. */
function newWhat(incident: AlertIncident): string {
  if (incident.call_count === incident.new_calls) return "New";
  return incident.new_calls === 1 ? "New caller" : `${incident.new_calls} new callers`;
}

function AlertEntry({ incident, reminder, onSelect }: { incident: AlertIncident; reminder: boolean; onSelect: (incident: AlertIncident) => void }) {
  const acknowledge = useAcknowledge();
  const now = useNow();
  const mayAct = useMayAct(incident.training);
  const title = `${humanize(incident.emergency_type)}, ${incident.location}`;
  return (
    <li className={`alert-entry sev-${severityOf(incident.severity)}${reminder ? " is-reminder" : " is-alerting"}`} data-incident-id={incident.id}>
      <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(incident.severity, 14) }} />
      <button type="button" className="link-button alert-open" title={title} onClick={() => onSelect(incident)}>
        {humanize(incident.emergency_type)}
        <span className="alert-where"> · {incident.location}</span>
      </button>
      {incident.latest_call.exercise_id && <span className="exercise-badge">Exercise</span>}
      <span className="alert-what">
        {reminder ? `Waiting ${formatWaiting(now / 1000 - Date.parse(incident.queued_at) / 1000)}` : newWhat(incident)}
      </span>
      {mayAct && (
        <button
          type="button"
          className="action-acknowledge"
          data-incident-id={incident.id}
          disabled={acknowledge.isPending}
          onClick={() => acknowledge.mutate(incident.id)}
        >
          Ack<span className="sr-only">nowledge {title}</span>
        </button>
      )}
    </li>
  );
}

/**
 * The "New" strip at the top of the queue (docs/dashboard.md, "Alerts"): every open critical
 * incident with a call nobody has acknowledged, then every incident waiting undispatched past its
 * threshold, from the server's alerts however far down the queue they rank; each stays until a
 * dispatcher acknowledges it (its button, or `a` on its queue row), for every dispatcher at once.
 */
export function AlertStrip({ alerts, onSelect }: { alerts: AlertState; onSelect: (incident: AlertIncident) => void }) {
  const list = alerts.list;
  if (!list || list.new.total + list.reminders.total === 0) return null;
  const more = list.new.total - list.new.incidents.length + (list.reminders.total - list.reminders.incidents.length);
  return (
    <section className="alert-strip" aria-labelledby="alert-strip-title" data-testid="alert-strip">
      <h3 id="alert-strip-title" className="alert-strip-title">
        New <span data-testid="alert-new-total">{list.new.total.toLocaleString()}</span>
        {list.reminders.total > 0 && <span className="alert-reminder-total"> · waiting {list.reminders.total.toLocaleString()}</span>}
      </h3>
      <ol className="alert-list" aria-label="Alerts not yet acknowledged, newest first, then incidents waiting past their threshold">
        {list.new.incidents.map((incident) => <AlertEntry key={`new-${incident.id}`} incident={incident} reminder={false} onSelect={onSelect} />)}
        {list.reminders.incidents.map((incident) => (
          <AlertEntry key={`reminder-${incident.id}`} incident={incident} reminder onSelect={onSelect} />
        ))}
        {more > 0 && <li className="alert-more muted">and {more.toLocaleString()} more in the queue</li>}
      </ol>
    </section>
  );
}
