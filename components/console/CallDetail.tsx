"use client";

import { implausibleTime } from "@/lib/calls/queue-time";
import { useEffect, useRef } from "react";
import type { CallRecord } from "../shared/api";
import { humanize } from "../shared/call-status";
import { CallCorrectionForm, CorrectionHistory, CorrectionNotes } from "./CallCorrection";
import { CallerLink } from "./CallerLink";
import { formatTime, PLATFORM_NAMES } from "../shared/format";
import { LiveCallControls } from "./LiveCallControls";
import { SeverityBadge } from "../shared/SeverityIcon";
import { StatusBadge } from "../shared/StatusBadge";
import { UnverifiedBadge } from "../shared/UnverifiedBadge";
import { StatusActions } from "./StatusActions";
import { Transcript } from "./Transcript";
import { useCallDetail } from "../shared/use-calls";
import { formatCoordinates, precisionLabel } from "../shared/precision";
import { locating, OnTheLine, RunningTime } from "../shared/OnTheLine";

/** Where a panel's focus should go: a new `seq` asks again. */
export interface FocusRequest {
  to: "panel" | "location";
  seq: number;
}

function Field({ label, value }: { label: string; value: React.ReactNode }) {
  if (value === null || value === undefined || value === "") return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

/**
 * The full record of one call, its summary, transcript, status history, its corrections (and the
 * form to make one). Each new `focus` request (its `seq`) takes the focus: the panel, or
 * (`"location"`) the correction's location field once the call is loaded.
 */
export function CallDetail({ id, onClose, onShowOnMap, focus, onCorrected }: {
  id: string;
  onClose: () => void;
  onShowOnMap: (call: CallRecord) => void;
  focus?: FocusRequest;
  /** After a correction is saved: where the focus goes next. */
  onCorrected?: () => void;
}) {
  const { data: call, error, isPending } = useCallDetail(id);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focus?.to === "panel") panel.current?.focus();
  }, [focus]);
  return (
    <section className="panel call-detail" aria-labelledby="detail-title" tabIndex={-1} ref={panel}>
      <header className="panel-head">
        <h3 id="detail-title">Call {id}</h3>
        <button type="button" onClick={onClose} aria-label="Close call details">
          Close
        </button>
      </header>
      {isPending ? (
        <p className="muted">Loading…</p>
      ) : error || !call ? (
        <p role="alert">The call could not be loaded: {error?.message}</p>
      ) : (
        <>
          <p className="detail-headline">
            <SeverityBadge severity={call.severity} /> <strong>{humanize(call.emergency_type)}</strong>{" "}
            <StatusBadge status={call.status} /> <UnverifiedBadge call={call} />{" "}
            {call.on_line && <OnTheLine since={call.timestamp} />}
          </p>
          <CorrectionNotes call={call} />
          <StatusActions id={call.conversation_id} status={call.status} training={call.simulation} />
          <LiveCallControls call={call} />
          <CallCorrectionForm call={call} editLocation={focus?.to === "location" ? focus : undefined} onSaved={onCorrected} />
          <h4>Transcript summary</h4>
          <p className="detail-summary">{call.summary || "No summary."}</p>
          <h4>Transcript</h4>
          <Transcript turns={call.transcript} />
          <dl className="detail-fields">
            <Field
              label="Time"
              value={
                implausibleTime(call.timestamp * 1000, Date.parse(call.created_at))
                  ? `${formatTime(call.timestamp)} (as the platform sent it: implausible, so the queue orders and ages this call by its receipt, ${formatTime(call.created_at)})`
                  : formatTime(call.timestamp)
              }
            />
            <Field label="Location" value={<span data-testid="detail-location">{locating(call.location, call.on_line === true) ? "locating…" : call.location}</span>} />
            <Field
              label="Precision"
              value={
                call.latitude === null ? undefined : (
                  <span data-testid="detail-precision">{precisionLabel(call.location_precision, call.location_uncertainty_m)}</span>
                )
              }
            />
            <Field label="Area" value={call.area} />
            <Field
              label="Coordinates"
              value={
                <span data-testid="detail-coordinates">
                  {call.latitude !== null && call.longitude !== null
                    ? formatCoordinates(call.latitude, call.longitude, call.location_precision)
                    : "Not located"}
                </span>
              }
            />
            <Field label="Source" value={call.simulation ? `Simulation: ${call.scenario_name ?? call.scenario}` : `Voice agent ${call.agent_id ?? ""}`} />
            <Field label="Platform" value={call.simulation ? undefined : <span data-testid="detail-platform">{PLATFORM_NAMES[call.platform]}</span>} />
            <Field label="Table" value={call.table_name} />
            <Field label="Description" value={call.description} />
            <Field label="Caller" value={<CallerLink phone={call.caller_phone} testId="detail-caller" />} />
            <Field label="Failure" value={call.failure_reason && `Never connected: ${humanize(call.failure_reason)}`} />
            <Field
              label="Duration"
              value={call.on_line ? <span data-testid="detail-duration"><RunningTime since={call.timestamp} /> so far</span> : call.duration_secs !== undefined ? `${call.duration_secs} s` : undefined}
            />
            <Field label="Transcript turns" value={call.transcript_length} />
            <Field label="Call successful" value={call.call_successful === undefined ? undefined : call.call_successful ? "Yes" : "No"} />
            <Field label="Recorded" value={formatTime(call.created_at)} />
          </dl>
          {!call.recording && call.recording_url && (
            <>
              <h4>Recording</h4>
              {/* The platform's own link: it plays while the platform keeps the audio. */}
              <a href={call.recording_url} target="_blank" rel="noreferrer noopener" data-testid="recording-link">
                Recording at {PLATFORM_NAMES[call.platform]}
              </a>
            </>
          )}
          {call.recording && (
            <>
              <h4>Recording</h4>
              {/* Seeks with range requests; the session cookie authorises them like any API call. */}
              <audio controls preload="metadata" src={call.recording.url} data-testid="recording">
                <a href={call.recording.url}>Download the recording</a>
              </audio>
            </>
          )}
          {call.caller_phone && (
            <>
              <h4>Other calls from {call.caller_phone}</h4>
              {call.other_calls_from_number.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <ul className="other-calls" aria-label={`Other calls from ${call.caller_phone}`}>
                  {call.other_calls_from_number.map((other) => (
                    <li key={other.conversation_id} data-call-id={other.conversation_id}>
                      {other.timestamp <= call.timestamp ? "Earlier call" : "Later call"}:{" "}
                      <time dateTime={new Date(other.timestamp * 1000).toISOString()}>{formatTime(other.timestamp)}</time>,{" "}
                      {humanize(other.emergency_type)} <StatusBadge status={other.status} />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
          <h4>Status history</h4>
          <ol className="status-history">
            {call.history.map((change) => (
              <li key={`${change.status}-${change.changed_at}`}>
                <StatusBadge status={change.status} />{" "}
                <time dateTime={change.changed_at}>{formatTime(change.changed_at)}</time>
              </li>
            ))}
          </ol>
          <CorrectionHistory corrections={call.corrections} />
          {call.latitude !== null && (
            <button type="button" onClick={() => onShowOnMap(call)}>
              Show on map
            </button>
          )}
        </>
      )}
    </section>
  );
}
