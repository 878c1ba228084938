"use client";

import { STATUS_LABEL, statusOptions } from "./call-status";
import { useStatusChange } from "./use-calls";

/** One button per status the call may move to next. */
export function StatusActions({ id, status }: { id: string; status: string }) {
  const change = useStatusChange();
  const options = statusOptions(status);
  if (options.length === 0) return null;
  return (
    <div className="status-actions" role="group" aria-label={`Move call ${id} to`}>
      {options.map((next) => (
        <button
          key={next}
          type="button"
          className={`action action-${next}`}
          onClick={() => change.mutate({ id, status: next })}
        >
          {STATUS_LABEL[next]}
        </button>
      ))}
    </div>
  );
}
