"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";
import type { CorrectedField } from "@/lib/calls/schema";
import { EMERGENCY_TYPES, SEVERITIES } from "@/lib/vocabulary";
import type { Precision } from "@/lib/geocoding/types";
import { ApiRequestError, type CallDetail, type CallUpdate } from "../shared/api";
import { humanize } from "../shared/call-status";
import { formatTime } from "../shared/format";
import { precisionLabel } from "../shared/precision";
import { useMayAct } from "../shared/person";
import { useCallCorrection } from "../shared/use-calls";

const FIELD_LABEL: Record<CorrectedField, string> = { emergency_type: "Type", severity: "Severity", location: "Location" };

/** How a field's value reads on screen. */
const shown = (field: CorrectedField, value: string) => (field === "location" ? `“${value}”` : humanize(value));

/**
 * "corrected from <the agent's value> by <who>" for each field a dispatcher corrected: the agent's
 * value is the record's original_<field>, the person the latest correction of that field's.
 */
export function CorrectionNotes({ call }: { call: CallDetail }) {
  const originals: [CorrectedField, string | undefined][] = [
    ["emergency_type", call.original_emergency_type],
    ["severity", call.original_severity],
    ["location", call.original_location],
  ];
  const notes = originals.flatMap(([field, original]) => {
    if (original === undefined) return [];
    const latest = call.corrections.findLast((correction) => correction.field === field);
    return [{ field, original, by: latest?.changed_by }];
  });
  if (notes.length === 0) return null;
  return (
    <ul className="correction-notes">
      {notes.map(({ field, original, by }) => (
        <li key={field} data-testid={`corrected-${field}`}>
          {FIELD_LABEL[field]} corrected from {shown(field, original)}
          {by && <> by {by}</>}
        </li>
      ))}
    </ul>
  );
}

/** Every correction of the call, oldest first: field, what it was, what it became, who, when. */
export function CorrectionHistory({ corrections }: { corrections: CallDetail["corrections"] }) {
  if (corrections.length === 0) return null;
  return (
    <>
      <h4>Corrections</h4>
      <ol className="correction-history" aria-label="Corrections">
        {corrections.map((correction, index) => (
          <li key={`${correction.changed_at}-${index}`}>
            {FIELD_LABEL[correction.field]}: {shown(correction.field, correction.from)} → {shown(correction.field, correction.to)}, by{" "}
            {correction.changed_by}, <time dateTime={correction.changed_at}>{formatTime(correction.changed_at)}</time>
          </li>
        ))}
      </ol>
    </>
  );
}

type Correction = Omit<CallUpdate, "status">;

/**
 * Why a correction naming a street the centre's GIS lacks was refused (409 STREET_NOT_IN_GIS), in
 * the refusal's words, and the offer to place it where the other geocoders would (often the town's
 * centre) when they know the place at all.
 */
function UnknownStreet({ failure, onConfirm }: { failure: ApiRequestError; onConfirm: () => void }) {
  const { streets, community, to_precision: toPrecision } = failure.details as { streets?: string[]; community?: string; to_precision?: Precision | null };
  return (
    <p role="alert" className="form-error" data-testid="street-not-in-gis">
      Not corrected: the centre&apos;s GIS has no {streets?.join(" or ") ?? "such street"} in {community ?? "that town"}.{" "}
      {toPrecision ? (
        <button type="button" onClick={onConfirm}>
          Place at {precisionLabel(toPrecision)} anyway
        </button>
      ) : (
        "Check the street's name, or give a place nearby."
      )}
    </p>
  );
}

/**
 * The dispatcher's correction of what the agent heard: type, severity and spoken location, in a
 * form (labelled fields, keyboard only is enough; Enter submits). Only changed fields are sent;
 * the server geocodes a new location again. A location less exact than the call's is asked about
 * first ("Correct anyway"), and so is a street the centre's GIS does not have ("Place at ... anyway"); a correction that moved the call out of its incident says so, with its
 * undo (the previous values sent back). Shown to whoever may move the call. `editLocation` (each
 * new request object) opens it with the location field focused and selected (the key c); a save
 * re-draws the fields, so focus then goes to `onSaved`'s choice, else to the form's summary, never
 * to the page body.
 */
export function CallCorrectionForm({ call, editLocation, onSaved }: { call: CallDetail; editLocation?: object; onSaved?: () => void }) {
  const correction = useCallCorrection(call.conversation_id);
  const allowed = useMayAct(call.simulation);
  // The last correction sent, and the values it replaced: its undo (docs/dashboard.md, "Corrections").
  const [sent, setSent] = useState<{ changed: Correction; before: Correction } | null>(null);
  const disclosure = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = disclosure.current;
    if (!editLocation || !details) return;
    details.open = true;
    const field = details.querySelector<HTMLInputElement>('input[name="location"]');
    field?.focus();
    field?.select();
  }, [editLocation, allowed]);
  if (!allowed) return null;
  const types: readonly string[] = EMERGENCY_TYPES.includes(call.emergency_type as (typeof EMERGENCY_TYPES)[number])
    ? EMERGENCY_TYPES
    : [call.emergency_type, ...EMERGENCY_TYPES];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const changed: Omit<CallUpdate, "status"> = {};
    const type = String(form.get("emergency_type"));
    const severity = String(form.get("severity"));
    const location = String(form.get("location")).trim();
    if (type !== call.emergency_type) changed.emergency_type = type as CallUpdate["emergency_type"];
    if (severity !== call.severity) changed.severity = severity as CallUpdate["severity"];
    if (location !== call.location) changed.location = location;
    if (Object.keys(changed).length > 0) send(changed);
  }

  function send(changed: Correction) {
    const before: Correction = {};
    if (changed.emergency_type !== undefined) before.emergency_type = call.emergency_type as CallUpdate["emergency_type"];
    if (changed.severity !== undefined) before.severity = call.severity as CallUpdate["severity"];
    if (changed.location !== undefined) before.location = call.location;
    setSent({ changed, before });
    correction.mutate(changed, { onSuccess: () => (onSaved ? onSaved() : disclosure.current?.querySelector("summary")?.focus()) });
  }

  const failure = correction.error;
  const lowersPrecision = failure instanceof ApiRequestError && failure.code === "PRECISION_LOWERED";
  const unknownStreet = failure instanceof ApiRequestError && failure.code === "STREET_NOT_IN_GIS";
  const movedOutOf = correction.data?.moved_out_of;
  return (
    <details className="call-correction" ref={disclosure}>
      <summary>Correct type, severity or location</summary>
      {/* Keyed by the values shown, so the fields start from the call as it is now. */}
      <form
        key={`${call.emergency_type}|${call.severity}|${call.location}`}
        onSubmit={submit}
        aria-label={`Correct call ${call.conversation_id}`}
      >
        <label>
          Emergency type
          <select name="emergency_type" defaultValue={call.emergency_type}>
            {types.map((type) => (
              <option key={type} value={type}>
                {humanize(type)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Severity
          <select name="severity" defaultValue={call.severity}>
            {SEVERITIES.map((severity) => (
              <option key={severity} value={severity}>
                {humanize(severity)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Location
          <input name="location" defaultValue={call.location} required maxLength={500} autoComplete="off" />
        </label>
        <button type="submit" disabled={correction.isPending}>
          {correction.isPending ? "Saving…" : "Save correction"}
        </button>
        {unknownStreet && sent ? (
          <UnknownStreet failure={failure} onConfirm={() => correction.mutate({ ...sent.changed, confirm_coarse: true })} />
        ) : lowersPrecision && sent ? (
          <p role="alert" className="form-error">
            The new location is less exact than the call&apos;s present one (for example a town centre instead of an address).{" "}
            <button type="button" onClick={() => correction.mutate({ ...sent.changed, confirm_lower_precision: true })}>
              Correct anyway
            </button>
          </p>
        ) : (
          failure && (
            <p role="alert" className="form-error">
              Not corrected: {failure instanceof ApiRequestError ? failure.message : "unexpected error"}
            </p>
          )
        )}
        {movedOutOf && sent && (
          <p role="status" data-testid="moved-out-of">
            Moved out of incident {movedOutOf}.{" "}
            <button type="button" onClick={() => correction.mutate({ ...sent.before, confirm_lower_precision: true, confirm_coarse: true })}>
              Undo
            </button>
          </p>
        )}
      </form>
    </details>
  );
}
