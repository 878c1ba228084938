"use client";

import { useState } from "react";
import { NOTE_MAX_CHARACTERS } from "@/lib/notes/schema";
import { formatTime } from "../shared/format";
import { useMayAct } from "../shared/person";
import { useAddNote, useIncidentNotes } from "./use-notes";
import { useUnits } from "../shared/use-units";

/**
 * Whose radio report a note may be: the units of the incident's kind (an exercise's own for a
 * training incident), those serving it first.
 */
function RadioReportFrom({ id, training, value, onChange }: { id: string; training: boolean; value: string; onChange: (unitId: string) => void }) {
  const units = (useUnits().data?.units ?? []).filter((unit) => (unit.exercise_id !== null) === training);
  if (units.length === 0) return null;
  const serving = units.filter((unit) => unit.incident_id === id);
  const others = units.filter((unit) => unit.incident_id !== id);
  const option = (unit: (typeof units)[number]) => <option key={unit.id} value={unit.id}>{unit.call_sign}</option>;
  return (
    <label className="field">
      <span>Radio report from</span>
      <select name="note_unit" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">None: my own note</option>
        {serving.length > 0 && <optgroup label="On this incident">{serving.map(option)}</optgroup>}
        {others.length > 0 && <optgroup label="Other units">{others.map(option)}</optgroup>}
      </select>
    </label>
  );
}

/**
 * The incident's narrative (docs/incidents.md, "Notes"): what was decided and done, newest first,
 * each with its time and author, and the unit whose radio report it is. Notes are kept, never
 * edited; whoever may act on the incident may add one (Ctrl+Enter or the button).
 */
export function IncidentNotes({ id, training }: { id: string; training: boolean }) {
  const { data, error, isPending } = useIncidentNotes(id);
  const add = useAddNote(id);
  const mayWrite = useMayAct(training);
  const [text, setText] = useState("");
  const [unitId, setUnitId] = useState("");
  const submit = () => {
    if (text.trim() === "" || add.isPending) return;
    add.mutate({ text, unitId: unitId || undefined }, { onSuccess: () => { setText(""); setUnitId(""); } });
  };

  return (
    <section className="incident-notes" aria-labelledby="incident-notes-title">
      <h3 id="incident-notes-title">Notes</h3>
      {mayWrite && (
        <form
          className="note-form"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <RadioReportFrom id={id} training={training} value={unitId} onChange={setUnitId} />
          <label className="field">
            <span>Add a note</span>
            <textarea
              name="note"
              rows={2}
              maxLength={NOTE_MAX_CHARACTERS}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  submit();
                }
              }}
            />
          </label>
          <button type="submit" disabled={text.trim() === "" || add.isPending}>Add note</button>
        </form>
      )}
      {isPending ? (
        <p className="muted">Loading notes…</p>
      ) : error || !data ? (
        <p role="alert">The notes could not be loaded: {error?.message}</p>
      ) : data.notes.length === 0 ? (
        <p className="muted">No notes yet.</p>
      ) : (
        <ol className="note-list" aria-label="Notes, newest first">
          {data.notes.map((note) => (
            <li key={note.id} className="note" data-note-id={note.id}>
              <p className="note-meta">
                <time dateTime={note.created_at}>{formatTime(note.created_at)}</time> ·{" "}
                {note.unit ? `Radio, ${note.unit.call_sign} (written by ${note.author.name})` : note.author.name}
              </p>
              <p className="note-text">{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      {data?.next && <p className="muted">The newest {data.notes.length} notes are shown.</p>}
    </section>
  );
}
