"use client";

import type { CallStatus } from "@/lib/vocabulary";
import { STATUS_LABEL, statusOptions } from "../shared/call-status";
import { useMayAct } from "../shared/person";
import { useIncidentStatusChange, useStatusChange } from "../shared/use-calls";

/**
 * One button per status a call or incident may move to next (the same workflow for both). With
 * `nextOnly` (a queue row, where four buttons leave no room for its title) only the workflow's next
 * step shows; the others stay in the page, hidden, for the status keys (KeyboardHelp.tsx).
 */
function StatusButtons({ label, status, onMove, nextOnly = false }: { label: string; status: string; onMove: (next: CallStatus) => void; nextOnly?: boolean }) {
  const options = statusOptions(status);
  if (options.length === 0) return null;
  return (
    <div className="status-actions" role="group" aria-label={label}>
      {options.map((next, index) => (
        <button key={next} type="button" className={`action action-${next}`} hidden={nextOnly && index > 0} onClick={() => onMove(next)}>
          {STATUS_LABEL[next]}
        </button>
      ))}
    </div>
  );
}

/** A call's moves (PATCH /api/calls/{id}), for a person whose role may make them. */
export function StatusActions({ id, status, training }: { id: string; status: string; training: boolean }) {
  const change = useStatusChange();
  if (!useMayAct(training)) return null;
  return <StatusButtons label={`Move call ${id} to`} status={status} onMove={(next) => change.mutate({ id, status: next })} />;
}

/**
 * An incident's moves (PATCH /api/incidents/{id}): its open calls move with it, server side; a
 * close asks for its disposition, a dispatch with no unit for its reason (use-calls.ts).
 */
export function IncidentStatusActions({ id, status, training, nextOnly }: { id: string; status: string; training: boolean; nextOnly?: boolean }) {
  const { move } = useIncidentStatusChange();
  if (!useMayAct(training)) return null;
  return <StatusButtons label={`Move incident ${id} to`} status={status} nextOnly={nextOnly} onMove={(next) => void move(id, next)} />;
}
