/**
 * Outbound events' types and body formats (docs/integrations.md): pure data, shared by the API's
 * schemas and the dashboard's webhooks page.
 */

export const EVENT_TYPES = [
  "incident.created",
  "incident.updated",
  "incident.closed",
  "incident.merged",
  "note.created",
  "call.created",
  "call.status_changed",
  "call.updated",
  "unit.state_changed",
  "unit.assigned",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** mayday: Mayday's own JSON event; eido: the incident as a NENA EIDO. */
export const BODY_FORMATS = ["mayday", "eido"] as const;
export type BodyFormat = (typeof BODY_FORMATS)[number];
