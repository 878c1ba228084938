"use client";

import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import type { CallRecord } from "../shared/api";
import { CallDetail, type FocusRequest } from "./CallDetail";
import { humanize, isOpen } from "../shared/call-status";
import { CallerLink } from "./CallerLink";
import { IncidentNotes } from "./IncidentNotes";
import { IncidentUnits } from "./IncidentUnits";
import { MergeCandidates } from "./MergeCandidates";
import { locating, OnTheLine } from "../shared/OnTheLine";
import { typing } from "./KeyboardHelp";
import { callersLabel, formatTime } from "../shared/format";
import { duplicateApart, formatDistance, precisionLabel, shownAddress } from "../shared/precision";
import { SeverityBadge } from "../shared/SeverityIcon";
import { StatusBadge } from "../shared/StatusBadge";
import { UnverifiedBadge } from "../shared/UnverifiedBadge";
import { useCan } from "../shared/person";
import { IncidentStatusActions } from "./StatusActions";
import { useIncidentDetail, useIncidentRegrouping } from "../shared/use-calls";

/**
 * One incident (GET /api/incidents/{id}): its status actions, every one of its calls with caller
 * number, its own address, precision and distance from the incident's centre, and summary, oldest
 * first; any call opens on its own (the call detail), can be moved out into an incident of its own
 * (split), and another open incident of the same kind (training or real), found by the server
 * nearest first or by its words, can be merged into this one; a possible duplicate shows with its
 * distance and time, to merge or dismiss. Its notes sit above the calls; its units, their states
 * and the recommended ones below its status actions (IncidentUnits.tsx). It takes the focus when
 * it opens; its keys: o opens its first call (or the open
 * one), c that call's location correction, m the merge menu, g merges its nearest possible duplicate
 * into it, x dismisses that mark (docs/dashboard.md, "Keyboard").
 */
export function IncidentDetail({ id, headActions, onClose, onShowOnMap, onDone }: {
  id: string;
  /** What heads the panel beside its title and Close (the new call's button). */
  headActions?: ReactNode;
  onClose: () => void;
  onShowOnMap: (call: CallRecord) => void;
  /** After a correction is saved: the focus goes back where the incident was opened from. */
  onDone: () => void;
}) {
  const { data: incident, error, isPending } = useIncidentDetail(id);
  const { split, merge, dismiss } = useIncidentRegrouping();
  const canRegroup = useCan("dispatch");
  const [openCall, setOpenCall] = useState<string | null>(null);
  const [callFocus, setCallFocus] = useState<FocusRequest>();
  const panel = useRef<HTMLElement>(null);
  const mergeMenu = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    panel.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: "nearest" });
  }, []);

  // Its earliest call still on the line: "On the line" with that call's running time.
  const onLineSince = incident?.calls.filter((call) => call.on_line).map((call) => call.timestamp).sort((a, b) => a - b)[0];

  const showCall = (to: FocusRequest["to"]) => {
    const callId = openCall ?? incident?.calls[0]?.conversation_id;
    if (!callId) return;
    setOpenCall(callId);
    setCallFocus((last) => ({ to, seq: (last?.seq ?? 0) + 1 }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const duplicate = canRegroup ? incident?.possible_duplicates[0] : undefined;
    const act = {
      o: () => showCall("panel"),
      c: () => showCall("location"),
      m: () => mergeMenu.current?.focus(),
      g: duplicate && (() => merge.mutate({ id, otherId: duplicate.incident_id })),
      x: duplicate && (() => dismiss.mutate({ id, otherId: duplicate.incident_id })),
    }[event.key];
    if (!act) return;
    event.preventDefault();
    act();
  };

  return (
    <section className="panel incident-detail" aria-labelledby="incident-title" data-incident-id={id} tabIndex={-1} ref={panel} onKeyDown={onKeyDown}>
      <header className="panel-head">
        <h2 id="incident-title">Incident</h2>
        {headActions}
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
            {onLineSince !== undefined && <> <OnTheLine since={onLineSince} /></>}
          </p>
          <p className="muted incident-where">
            {locating(incident.location, onLineSince !== undefined) ? "locating…" : shownAddress(incident)}
            {incident.latitude !== null && (
              <span data-testid="incident-precision"> ({precisionLabel(incident.location_precision, incident.location_uncertainty_m)})</span>
            )}{" "}
            · first call {formatTime(incident.first_call_at)}, latest {formatTime(incident.last_call_at)}
          </p>
          <IncidentStatusActions id={incident.id} status={incident.status} training={incident.training} />
          <IncidentUnits incident={incident} />
          {incident.possible_duplicates.length > 0 && (
            <ul className="possible-duplicates" aria-label="Possible duplicates">
              {incident.possible_duplicates.map((other, index) => (
                <li key={other.incident_id} data-testid="possible-duplicate">
                  <span className="duplicate-badge">Duplicate?</span> {humanize(other.emergency_type)}, {other.location}{" "}
                  <span className="muted">({duplicateApart(other)})</span>
                  {canRegroup && (
                    <>
                      {" "}
                      <button type="button" disabled={merge.isPending} onClick={() => merge.mutate({ id: incident.id, otherId: other.incident_id })}>
                        Merge into this incident{index === 0 && <kbd>g</kbd>}
                      </button>{" "}
                      <button type="button" disabled={dismiss.isPending} onClick={() => dismiss.mutate({ id: incident.id, otherId: other.incident_id })}>
                        Not the same{index === 0 && <kbd>x</kbd>}
                      </button>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          {canRegroup && isOpen(incident.status) && <MergeCandidates id={incident.id} menuRef={mergeMenu} />}
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
                  {call.on_line && <> <OnTheLine since={call.timestamp} /></>}
                </p>
                <p className="popup-line incident-call-location" data-testid="incident-call-location">
                  {locating(call.location, call.on_line === true) ? "locating…" : call.location ? shownAddress(call) : "No location given"}
                  {call.latitude !== null && (
                    <span className="muted">
                      {" "}
                      ({precisionLabel(call.location_precision, call.location_uncertainty_m)}
                      {call.distance_m !== null && `; ${formatDistance(call.distance_m)} from the incident's centre`})
                    </span>
                  )}
                </p>
                <p className="detail-summary">{call.summary || "No summary."}</p>
                <p className="incident-call-actions">
                  <button type="button" onClick={() => { setOpenCall(call.conversation_id); setCallFocus((last) => ({ to: "panel", seq: (last?.seq ?? 0) + 1 })); }}>Open call</button>
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
          {openCall !== null && (
            <CallDetail
              key={openCall}
              id={openCall}
              focus={callFocus}
              onClose={() => {
                setOpenCall(null);
                panel.current?.focus();
              }}
              onShowOnMap={onShowOnMap}
              onCorrected={onDone}
            />
          )}
        </>
      )}
    </section>
  );
}
