"use client";

import { createContext, type FormEvent, type KeyboardEvent, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { DISPOSITION_LABEL, DISPOSITIONS, type Disposition } from "@/lib/incidents/dispositions";

/** What a move asks before it is made (docs/dashboard.md, "Dispatch reason, disposition, undo"). */
export type MoveQuestion =
  | { kind: "disposition"; title: string; /** The last unit clearing: the incident may also stay open. */ mayStayOpen?: boolean }
  | { kind: "reason"; title: string };

export type MoveAnswer = { disposition: Disposition } | { stayOpen: true } | { reason: string };

type Ask = (question: MoveQuestion) => Promise<MoveAnswer | null>;

const AskContext = createContext<Ask | null>(null);

/** Asks the person what a move must say (a disposition, a dispatch reason); null when they cancel. */
export function useMoveQuestion(): Ask {
  const ask = useContext(AskContext);
  if (!ask) throw new Error("useMoveQuestion outside <MoveDialogProvider>");
  return ask;
}

interface Pending {
  question: MoveQuestion;
  answer: (value: MoveAnswer | null) => void;
}

/**
 * One modal dialog for the whole page, outside the rows that ask (a queue row is redrawn and
 * scrolled away freely): a disposition is one of its buttons, each with its digit key; a reason a
 * line of text. The focus goes back where it was when the dialog closes, so a move made from a row
 * leaves the person on that row, never on the next one.
 */
export function MoveDialogProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback<Ask>(
    (question) =>
      new Promise((resolve) => {
        const returnTo = document.activeElement;
        setPending({
          question,
          answer: (value) => {
            setPending(null);
            if (returnTo instanceof HTMLElement && returnTo.isConnected) returnTo.focus();
            resolve(value);
          },
        });
      }),
    [],
  );
  return (
    <AskContext.Provider value={ask}>
      {children}
      {pending && <MoveDialog {...pending} />}
    </AskContext.Provider>
  );
}

function MoveDialog({ question, answer: settle }: Pending) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Closed first: while a modal dialog is open the rest of the page is inert, and the focus could not go back.
  const answer = (value: MoveAnswer | null) => {
    dialog.current?.close();
    settle(value);
  };
  const [reason, setReason] = useState("");
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const choices = useMemo(() => (question.kind === "disposition" ? DISPOSITIONS : []), [question.kind]);
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    // The dialog's keys are its own: none reaches the dashboard's (KeyboardHelp.tsx) while it is open.
    event.stopPropagation();
    const chosen = choices[Number(event.key) - 1];
    if (chosen && !(event.target instanceof HTMLInputElement)) {
      event.preventDefault();
      answer({ disposition: chosen });
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim()) answer({ reason: reason.trim() });
  };
  return (
    <dialog
      ref={dialog}
      className="move-dialog"
      aria-labelledby="move-dialog-title"
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        answer(null);
      }}
    >
      <h2 id="move-dialog-title">{question.title}</h2>
      {question.kind === "disposition" ? (
        <>
          <p className="muted">How did it end? A digit chooses.</p>
          <div className="disposition-choices" role="group" aria-label="Disposition">
            {choices.map((disposition, index) => (
              <button key={disposition} type="button" className={`action-disposition disposition-${disposition}`} autoFocus={index === 0} onClick={() => answer({ disposition })}>
                <kbd>{index + 1}</kbd> {DISPOSITION_LABEL[disposition]}
              </button>
            ))}
          </div>
          <p className="move-dialog-actions">
            {question.mayStayOpen && (
              <button type="button" className="action-stay-open" onClick={() => answer({ stayOpen: true })}>Leave the incident open</button>
            )}
            <button type="button" onClick={() => answer(null)}>Cancel</button>
          </p>
        </>
      ) : (
        <form onSubmit={submit}>
          <p className="muted">No unit is on this incident. Send one from the incident (<kbd>u</kbd>), or say why it is dispatched without one.</p>
          <label className="field">
            <span>Reason</span>
            <input name="dispatch-reason" autoFocus maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
          </label>
          <p className="move-dialog-actions">
            <button type="submit" disabled={!reason.trim()}>Dispatch without a unit</button>
            <button type="button" onClick={() => answer(null)}>Cancel</button>
          </p>
        </form>
      )}
    </dialog>
  );
}
