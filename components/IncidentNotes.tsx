"use client";

import { useState } from "react";
import { NOTE_MAX_CHARACTERS } from "@/lib/notes/schema";
import { formatTime } from "./format";
import { useMayAct } from "./person";
import { useAddNote, useIncidentNotes } from "./use-notes";

/**
 * The incident's narrative (docs/incidents.md, "Notes"): what was decided and done, newest first,
 * each with its time and author. Notes are kept, never edited; whoever may act on the incident
 * may add one (Ctrl+Enter or the button).
 */
export function IncidentNotes({ id, training }: { id: string; training: boolean }) {
  const { data, error, isPending } = useIncidentNotes(id);
  const add = useAddNote(id);
  const mayWrite = useMayAct(training);
  const [text, setText] = useState("");
  const submit = () => {
    if (text.trim() === "" || add.isPending) return;
    add.mutate(text, { onSuccess: () => setText("") });
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
                <time dateTime={note.created_at}>{formatTime(note.created_at)}</time> · {note.author.name}
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
