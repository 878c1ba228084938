/**
 * How an incident ended (docs/incidents.md, "Dispatch reason and disposition"): pure data, shared by
 * the server, which requires one of these to close an incident (resolved or failed), and the
 * dashboard, which asks for it. The codes follow what CAD systems record on closing a call for
 * service (treated, transported, nothing found, false alarm, cancelled, referred, not located).
 */
export const DISPOSITIONS = [
  "handled",
  "transported",
  "nothing_found",
  "false_alarm",
  "cancelled",
  "referred",
  "not_located",
] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const DISPOSITION_LABEL: Record<Disposition, string> = {
  handled: "Handled on scene",
  transported: "Patient transported",
  nothing_found: "Nothing found on arrival",
  false_alarm: "False alarm",
  cancelled: "Cancelled by the caller",
  referred: "Referred to another agency",
  not_located: "Could not be located",
};

/**
 * What the server records when an incident closes by itself: its last unit cleared while it was
 * still dispatched (lib/units/follow.ts) and the crew's report named none. Never given by a person.
 */
export const UNITS_CLEARED = "units_cleared";

/** A dispatch reason's longest text. */
export const DISPATCH_REASON_MAX = 500;
