"use client";

import type { UIEvent } from "react";
import type { AlertIncident, Alerts, IncidentKind } from "../shared/api";
import { humanize, severityOf } from "../shared/call-status";
import { formatWaiting } from "../shared/format";
import { locating, OnTheLine } from "../shared/OnTheLine";
import { useMayAct } from "../shared/person";
import { shownAddress } from "../shared/precision";
import { severitySvg } from "../shared/SeverityIcon";
import type { AlertState } from "./use-alerts";
import { useAcknowledge, useAcknowledgeAll } from "../shared/use-calls";
import { useNow } from "../shared/use-now";

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
        <span className="alert-where"> · {locating(incident.location, incident.on_line_since !== null) ? "locating…" : shownAddress(incident)}</span>
      </button>
      {incident.latest_call.exercise_id && <span className="exercise-badge">Exercise</span>}
      {incident.on_line_since !== null && <OnTheLine since={incident.on_line_since} />}
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

/** Each strip's words: the real one is the "New" strip; the training one says so, below it. */
const STRIP = {
  real: { title: "New", label: "Alerts of real incidents not yet acknowledged, newest first, then real incidents waiting past their threshold" },
  training: { title: "Training", label: "Alerts of training incidents not yet acknowledged, newest first, then training incidents waiting past their threshold" },
} as const satisfies Record<IncidentKind, { title: string; label: string }>;

/**
 * A scroll of a strip ends on a whole line: every entry is one line tall (app/globals.css), so the
 * strip shows one entry, never the halves of two.
 */
function endOnLine(event: UIEvent<HTMLElement>): void {
  const strip = event.currentTarget;
  const line = strip.querySelector<HTMLElement>(".alert-list > li")?.offsetHeight;
  if (!line) return;
  const whole = Math.round(strip.scrollTop / line) * line;
  if (whole !== strip.scrollTop) strip.scrollTo({ top: whole });
}

/** One kind's strip: its new alerts, then its reminders, and "Ack all" for whoever may acknowledge that kind. */
function KindStrip({ kind, alerts, exercise, onSelect }: { kind: IncidentKind; alerts: Alerts; exercise: string | undefined; onSelect: (incident: AlertIncident) => void }) {
  const training = kind === "training";
  const ofKind = (incident: AlertIncident) => incident.training === training;
  const count = (list: Alerts["new"]) => (training ? list.training_total : list.total - list.training_total);
  const [fresh, reminders] = [alerts.new.incidents.filter(ofKind), alerts.reminders.incidents.filter(ofKind)];
  const [freshTotal, reminderTotal] = [count(alerts.new), count(alerts.reminders)];
  const acknowledgeAll = useAcknowledgeAll(exercise);
  const mayAcknowledgeAll = useMayAct(training);
  if (freshTotal + reminderTotal === 0) return null;
  const more = freshTotal - fresh.length + (reminderTotal - reminders.length);
  const { title, label } = STRIP[kind];
  return (
    <section className={`alert-strip kind-${kind}`} aria-labelledby={`alert-strip-${kind}-title`} data-testid={training ? "alert-strip-training" : "alert-strip"} onScrollEnd={endOnLine}>
      <h3 id={`alert-strip-${kind}-title`} className="alert-strip-title">
        {title} <span data-testid={training ? "alert-training-new-total" : "alert-new-total"}>{freshTotal.toLocaleString()}</span>
        {reminderTotal > 0 && <span className="alert-reminder-total"> · waiting {reminderTotal.toLocaleString()}</span>}
        {mayAcknowledgeAll && (
          <button
            type="button"
            className="action-acknowledge-all"
            disabled={acknowledgeAll.isPending}
            onClick={() => acknowledgeAll.mutate(kind)}
          >
            Ack all<span className="sr-only"> {training ? "training" : "real"} alerts</span>
          </button>
        )}
      </h3>
      <ol className="alert-list" aria-label={label}>
        {fresh.map((incident) => <AlertEntry key={`new-${incident.id}`} incident={incident} reminder={false} onSelect={onSelect} />)}
        {reminders.map((incident) => <AlertEntry key={`reminder-${incident.id}`} incident={incident} reminder onSelect={onSelect} />)}
        {more > 0 && <li className="alert-more muted">and {more.toLocaleString()} more in the queue</li>}
      </ol>
    </section>
  );
}

/**
 * The alert strips at the top of the queue (docs/dashboard.md, "Alerts"): the "New" strip of real
 * incidents, then, while any training incident alerts, a strip of its own below it. Each lists
 * every open critical or high incident of its kind with a call nobody has acknowledged, then every one
 * waiting undispatched past its threshold, from the server's alerts however far down the queue
 * they rank; each stays until a dispatcher acknowledges it (its button, `a` on its queue row, or
 * its strip's "Ack all"), for every dispatcher at once.
 */
export function AlertStrip({ alerts, onSelect }: { alerts: AlertState; onSelect: (incident: AlertIncident) => void }) {
  const list = alerts.list;
  if (!list) return null;
  return (
    <>
      <KindStrip kind="real" alerts={list} exercise={alerts.exercise} onSelect={onSelect} />
      <KindStrip kind="training" alerts={list} exercise={alerts.exercise} onSelect={onSelect} />
    </>
  );
}
