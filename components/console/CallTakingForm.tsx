"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { LOCATION_QUERY_MIN, type LocationCandidate } from "@/lib/call-taking/schema";
import type { TakenCallBody } from "@/lib/calls/taken-schema";
import { EMERGENCY_TYPES, SEVERITIES } from "@/lib/vocabulary";
import { getLocationCandidates, getLocationDuplicates, takeCall } from "../shared/api";
import { type CallDraft, newDraft, useCallDraft } from "./call-draft";
import { humanize, SEVERITY_LABEL } from "../shared/call-status";
import { callersLabel } from "../shared/format";
import { formatDistance, precisionLabel } from "../shared/precision";
import { useNotify } from "../shared/providers";
import { rereadQueries } from "../shared/reread";

/** How long typing pauses before the location's candidates are asked for. */
const TYPING_PAUSE_MS = 200;
/** A draft older than this no longer names the form's opening (the server takes at most 24 h): the save's time counts. */
const OPENING_KEPT_MS = 23 * 3600_000;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

type Problems = Partial<Record<"location" | "emergency_type" | "severity", string>>;

function problemsOf(draft: CallDraft): Problems {
  const problems: Problems = {};
  if (draft.location.trim() === "" && draft.unit === null) problems.location = "Type where it is, and choose a candidate when one fits.";
  if (draft.emergency_type === "") problems.emergency_type = "Choose the emergency's type.";
  if (draft.severity === "") problems.severity = "Choose how severe it is.";
  return problems;
}

/** The save's body (POST /api/calls, docs/calls.md "A call a person takes"); type and severity are checked chosen first. */
function takenCall(draft: CallDraft): TakenCallBody {
  const typed = draft.location.trim();
  return {
    conversation_id: draft.conversation_id,
    form_opened_at: Date.now() - draft.form_opened_at * 1000 < OPENING_KEPT_MS ? draft.form_opened_at : undefined,
    callback_number: draft.callback_number.trim() || undefined,
    caller_name: draft.caller_name.trim() || undefined,
    // A chosen candidate is sent with the text it was found for: the server finds it among that text's again.
    location: draft.chosen ? draft.chosen.query : typed || undefined,
    candidate_id: draft.chosen?.candidate.id,
    emergency_type: draft.emergency_type as TakenCallBody["emergency_type"],
    severity: draft.severity as TakenCallBody["severity"],
    narrative: draft.narrative.trim(),
    incident_id: draft.incident_id ?? undefined,
    unit_id: draft.unit?.id,
  };
}

/**
 * The location as typed, checked against the centre's GIS while it is typed (GET /api/locations,
 * after a pause in typing): its candidates with their precision in a listbox (the ARIA combobox
 * pattern: ↓ and ↑ move through them, Enter chooses, Esc closes the list), the first one active.
 * The one chosen is the point stored; typing again drops the choice.
 */
function LocationField({ draft, change, problem }: { draft: CallDraft; change: (patch: Partial<CallDraft>) => void; problem?: string }) {
  const listId = useId();
  const [listOpen, setListOpen] = useState(false);
  const [active, setActive] = useState(0);
  const typed = useSettled(draft.location.trim());
  const asking = typed.length >= LOCATION_QUERY_MIN && typed !== draft.chosen?.candidate.label;
  const found = useQuery({ queryKey: ["location-candidates", typed], queryFn: () => getLocationCandidates(typed), enabled: asking, staleTime: 60_000 });
  const candidates = asking && found.data?.q === typed ? found.data.candidates : [];
  const shown = listOpen && candidates.length > 0;

  const choose = (candidate: LocationCandidate) => {
    change({ location: candidate.label, chosen: { query: typed, candidate }, incident_id: null });
    setListOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (candidates.length === 0) return;
      event.preventDefault();
      if (!shown) return setListOpen(true);
      setActive((at) => (at + (event.key === "ArrowDown" ? 1 : candidates.length - 1)) % candidates.length);
    } else if (event.key === "Enter" && shown && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      choose(candidates[Math.min(active, candidates.length - 1)]);
    } else if (event.key === "Escape" && shown) {
      // The list closes; the form (and its draft) stays.
      event.preventDefault();
      setListOpen(false);
    }
  };
  const activeId = shown ? `${listId}-${Math.min(active, candidates.length - 1)}` : undefined;
  const where = draft.chosen?.candidate;

  return (
    <div className="call-location">
      <label className="field">
        <span>Location{draft.unit ? ` (empty: at ${draft.unit.call_sign}'s position)` : ""}</span>
        <input
          name="location"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-invalid={problem ? true : undefined}
          aria-describedby="call-location-status"
          data-autofocus={draft.unit ? "" : undefined}
          value={draft.location}
          onChange={(event) => {
            change({ location: event.target.value, chosen: null, incident_id: null });
            setListOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setListOpen(false)}
        />
      </label>
      <ul id={listId} role="listbox" aria-label="Where it may be" className="call-candidates" hidden={!shown}>
        {candidates.map((candidate, index) => (
          <li
            key={candidate.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className="call-candidate"
            // Chosen before the field's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(candidate);
            }}
          >
            {candidate.label} <span className="muted">({precisionLabel(candidate.precision, candidate.uncertainty_m)})</span>
          </li>
        ))}
      </ul>
      <p id="call-location-status" className="muted call-location-status" aria-live="polite">
        {where
          ? `Chosen: ${where.label} (${precisionLabel(where.precision, where.uncertainty_m)})`
          : asking && found.isFetching
            ? "Looking it up…"
            : asking && found.isError
              ? `Not checked: ${found.error.message}. The words are kept and geocoded when saved.`
              : asking && found.data && candidates.length === 0
                ? "No candidate: the words are kept and geocoded when saved."
                : candidates.length > 0
                  ? `${candidates.length} candidates: ↓ ↑ and Enter to choose.`
                  : ""}
      </p>
      {problem && <p className="form-error">{problem}</p>}
    </div>
  );
}

/**
 * The open incidents near the chosen point of the same type (GET /api/locations/duplicates, the
 * possible-duplicate rule): the call joins one (its button, or Alt+J for the nearest) or, left
 * alone, opens its own incident.
 */
function Duplicates({ draft, change }: { draft: CallDraft; change: (patch: Partial<CallDraft>) => void }) {
  const point = draft.chosen?.candidate;
  const type = draft.emergency_type;
  const found = useQuery({
    queryKey: ["location-duplicates", point?.latitude, point?.longitude, type],
    queryFn: () => getLocationDuplicates({ latitude: point!.latitude, longitude: point!.longitude, emergency_type: type }),
    enabled: point !== undefined && type !== "",
  });
  const duplicates = point && type !== "" ? (found.data?.duplicates ?? []) : [];
  if (duplicates.length === 0) return null;
  return (
    <section className="call-duplicates" aria-labelledby="call-duplicates-title">
      <h3 id="call-duplicates-title">Possible duplicates</h3>
      <ul>
        {duplicates.map((duplicate, index) => (
          <li key={duplicate.incident_id} data-testid="call-duplicate" data-incident-id={duplicate.incident_id}>
            <button
              type="button"
              className="action-join"
              aria-pressed={draft.incident_id === duplicate.incident_id}
              onClick={() => change({ incident_id: draft.incident_id === duplicate.incident_id ? null : duplicate.incident_id })}
            >
              {draft.incident_id === duplicate.incident_id ? "Joined" : "Join"}
              {index === 0 && <kbd>Alt+J</kbd>}
            </button>{" "}
            {humanize(duplicate.emergency_type)}, {duplicate.location}{" "}
            <span className="muted">
              ({SEVERITY_LABEL[duplicate.severity as keyof typeof SEVERITY_LABEL] ?? duplicate.severity}, {callersLabel(duplicate.call_count)},{" "}
              {formatDistance(duplicate.distance_m)} away)
            </span>
          </li>
        ))}
      </ul>
      <p className="muted" aria-live="polite">
        {draft.incident_id ? "The call joins the incident marked Joined." : "Joined to none: the call opens its own incident."}
      </p>
    </section>
  );
}

/**
 * Taking a call (docs/dashboard.md, "Taking a call"): callback number, caller's name, location
 * (checked against the centre's GIS as it is typed), type, severity and narrative, saved as a call
 * of the person's (POST /api/calls) with Ctrl+Enter. Keyboard first: `n` opens it with the focus in
 * its first field, Esc closes it; the draft is kept per person in this browser until it is saved
 * (call-draft.ts). Opened from a unit ("+ Incident"), the call is that unit's own report.
 */
export function CallTakingForm({ personId, onSaved }: { personId: string; onSaved: () => void }) {
  const { draft: stored, change, clear } = useCallDraft(personId);
  const client = useQueryClient();
  const notify = useNotify();
  const [problems, setProblems] = useState<Problems>({});
  const form = useRef<HTMLFormElement>(null);
  // Nothing stored yet: the empty form (a draft begins with the first change).
  const [blank] = useState(newDraft);
  const draft: CallDraft = stored ?? blank;
  const save = useMutation({
    mutationFn: takeCall,
    onSuccess: (call) => {
      clear();
      setProblems({});
      notify(`Call saved: ${humanize(call.emergency_type)}, ${call.location_matched ?? call.location}`);
      void rereadQueries(client, { queryKey: ["live"] });
      void rereadQueries(client, { queryKey: ["units"] });
      onSaved();
    },
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (save.isPending) return;
    const found = problemsOf(draft);
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    save.mutate(takenCall(draft));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    } else if (event.altKey && event.code === "KeyJ") {
      // The nearest possible duplicate: joined, or left again.
      const nearest = form.current?.querySelector<HTMLButtonElement>(".call-duplicates .action-join");
      if (!nearest) return;
      event.preventDefault();
      nearest.click();
    }
  };
  const field = (name: "callback_number" | "caller_name" | "narrative") => ({
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => change({ [name]: event.target.value }),
  });

  return (
    <section className="panel call-taking" aria-labelledby="call-form-title">
      <header className="panel-head">
        <h2 id="call-form-title">{draft.unit ? `New incident reported by ${draft.unit.call_sign}` : "New call"}</h2>
        {draft.unit && (
          // Opened from a unit by mistake: the same draft as a caller's call.
          <button type="button" onClick={() => change({ unit: null })}>A caller&apos;s call instead</button>
        )}
      </header>
      <form ref={form} className="call-form" noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-describedby="call-form-keys">
        <p id="call-form-keys" className="muted call-form-keys">
          <kbd>Ctrl+Enter</kbd> saves · <kbd>Alt+J</kbd> joins the nearest possible duplicate · <kbd>Esc</kbd> closes, the draft kept
        </p>
        {!draft.unit && (
          <div className="call-form-row">
            <label className="field">
              <span>Callback number</span>
              <input type="tel" autoComplete="off" data-autofocus="" {...field("callback_number")} />
            </label>
            <label className="field">
              <span>Caller&apos;s name</span>
              <input type="text" autoComplete="off" {...field("caller_name")} />
            </label>
          </div>
        )}
        <LocationField draft={draft} change={change} problem={problems.location} />
        <div className="call-form-row">
          <label className="field">
            <span>Type</span>
            <select name="emergency_type" value={draft.emergency_type} aria-invalid={problems.emergency_type ? true : undefined}
              onChange={(event) => change({ emergency_type: event.target.value, incident_id: null })}>
              <option value="">Choose…</option>
              {EMERGENCY_TYPES.map((type) => <option key={type} value={type}>{humanize(type)}</option>)}
            </select>
          </label>
          <label className="field">
            <span>Severity</span>
            <select name="severity" value={draft.severity} aria-invalid={problems.severity ? true : undefined}
              onChange={(event) => change({ severity: event.target.value })}>
              <option value="">Choose…</option>
              {SEVERITIES.map((severity) => <option key={severity} value={severity}>{SEVERITY_LABEL[severity]}</option>)}
            </select>
          </label>
        </div>
        {(problems.emergency_type || problems.severity) && <p className="form-error">{problems.emergency_type ?? problems.severity}</p>}
        <Duplicates draft={draft} change={change} />
        <label className="field">
          <span>Narrative</span>
          <textarea rows={4} {...field("narrative")} />
        </label>
        <div className="call-form-actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save call"} <kbd>Ctrl+Enter</kbd>
          </button>
          {stored && (
            <button type="button" onClick={() => { clear(); setProblems({}); save.reset(); }}>
              Discard draft
            </button>
          )}
        </div>
        {save.isError && <p className="form-error" role="alert">The call was not saved: {save.error.message}</p>}
      </form>
    </section>
  );
}
