import { statusLabel } from "./call-status";

/** A call's status as the dispatcher reads it, coloured by `.status-<status>`. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status status-${status}`}>{statusLabel(status)}</span>;
}
