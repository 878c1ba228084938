"use client";

import { useState } from "react";
import type { CallRecord, LiveIncident } from "./api";
import { CallDetail } from "./CallDetail";
import { humanize, isOpen } from "./call-status";
import { CallerLink } from "./CallerLink";
import { IncidentNotes } from "./IncidentNotes";
import { callersLabel, formatTime } from "./format";
import { SeverityBadge } from "./SeverityIcon";
import { StatusBadge } from "./StatusBadge";
import { UnverifiedBadge } from "./UnverifiedBadge";
import { useCan } from "./person";
import { IncidentStatusActions } from "./StatusActions";
import { useIncidentDetail, useIncidentRegrouping } from "./use-calls";

/**
 * One incident (GET /api/incidents/{id}): its status actions, every one of its calls with caller
 * number and summary, oldest first; any call opens on its own (the call detail), can be moved out
 * into an incident of its own (split), and another open incident can be merged into this one. Its
 * notes sit above the calls.
 */
export function IncidentDetail({ id, candidates, onClose, onShowOnMap }: {
  id: string;
  /** Open incidents the dispatcher may merge into this one (the queue's window). */
  candidates: LiveIncident[];
  onClose: () => void;
  onShowOnMap: (call: CallRecord) => void;
}) {
  const { data: incident, error, isPending } = useIncidentDetail(id);
  const { split, merge } = useIncidentRegrouping();
  const canRegroup = useCan("dispatch");
  const [openCall, setOpenCall] = useState<string | null>(null);
  const [mergeWith, setMergeWith] = useState("");
  const others = candidates.filter((candidate) => candidate.id !== id);

  return (
    <section className="panel incident-detail" aria-labelledby="incident-title" data-incident-id={id}>
      <header className="panel-head">
        <h2 id="incident-title">Incident</h2>
        <button type="button" onClick={onClose} aria-label="Close incident details">Close</button>
      </header>
      {isPending ? (
        <p className="muted">Loading…</p>
      ) : error || !incident ? (
        <p role="alert">The incident could not be loaded: {error?.message}</p>
      ) : (
        <>
          <p className="detail-headline">
            <SeverityBadge severity={incident.severity} /> <strong>{humanize(incident.emergency_type)}</strong>{" "}
            <StatusBadge status={incident.status} />{" "}
            <span className="caller-count" data-testid="incident-caller-count">{callersLabel(incident.call_count)}</span>
          </p>
          <p className="muted">
            {incident.location} · first call {formatTime(Date.parse(incident.first_call_at) / 1000)}, latest{" "}
            {formatTime(Date.parse(incident.last_call_at) / 1000)}
          </p>
          <IncidentStatusActions id={incident.id} status={incident.status} training={incident.training} />
          {canRegroup && isOpen(incident.status) && others.length > 0 && (
            <form
              className="merge-form"
              onSubmit={(event) => {
                event.preventDefault();
                if (mergeWith) merge.mutate({ id: incident.id, otherId: mergeWith }, { onSuccess: () => setMergeWith("") });
              }}
            >
              <label className="field">
                <span>Merge into this incident</span>
                <select name="merge-with" value={mergeWith} onChange={(event) => setMergeWith(event.target.value)}>
                  <option value="">Choose an open incident</option>
                  {others.map((other) => (
                    <option key={other.id} value={other.id}>
                      {humanize(other.emergency_type)}, {other.location} ({callersLabel(other.call_count)})
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={!mergeWith || merge.isPending}>Merge</button>
            </form>
          )}
          <IncidentNotes id={incident.id} training={incident.training} />
          <h3>Calls, oldest first</h3>
          <ol className="incident-calls" aria-label={`The ${incident.call_count} calls of this incident`}>
            {incident.calls.map((call) => (
              <li key={call.conversation_id} className="incident-call" data-call-id={call.conversation_id}>
                <p className="popup-line">
                  <time dateTime={new Date(call.timestamp * 1000).toISOString()}>{formatTime(call.timestamp)}</time>
                  {" · "}
                  <CallerLink phone={call.caller_phone} testId="incident-call-caller" />{" "}
                  <SeverityBadge severity={call.severity} /> <StatusBadge status={call.status} />
                  {call.exercise_id && <span className="exercise-badge">Exercise</span>} <UnverifiedBadge call={call} />
                </p>
                <p className="detail-summary">{call.summary || "No summary."}</p>
                <p className="incident-call-actions">
                  <button type="button" onClick={() => setOpenCall(call.conversation_id)}>Open call</button>
                  {canRegroup && incident.call_count > 1 && (
                    <button
                      type="button"
                      disabled={split.isPending}
                      onClick={() => split.mutate({ id: incident.id, callId: call.conversation_id })}
                    >
                      Move out to its own incident
                    </button>
                  )}
                </p>
              </li>
            ))}
          </ol>
          {openCall !== null && <CallDetail id={openCall} onClose={() => setOpenCall(null)} onShowOnMap={onShowOnMap} />}
        </>
      )}
    </section>
  );
}
