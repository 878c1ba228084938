import type { Db } from "../db/client";
import { readIncidentEido } from "../eido/export";
import type { DerivedEvent } from "./events";
import type { BodyFormat } from "./event-types";

/**
 * An event's body. mayday: `{ id, type, change, occurred_at, data }` with the call (call events) or
 * the incident and the call whose change it is (incident events). eido: the event's incident as an
 * EIDO (lib/eido), for every event type; its type is in the mayday-event-type header.
 */
export function maydayBody(event: DerivedEvent) {
  const { entry } = event;
  return {
    id: event.id,
    type: event.type,
    change: event.change,
    occurred_at: entry.changedAt.toISOString(),
    data: event.type.startsWith("incident.") ? { incident: entry.incident, call: entry.call } : { call: entry.call },
  };
}

export async function eventBody(db: Db, format: BodyFormat, event: DerivedEvent): Promise<string> {
  if (format === "eido") {
    const eido = await readIncidentEido(db, event.entry.call.incident_id);
    if (eido) return JSON.stringify(eido);
  }
  return JSON.stringify(maydayBody(event));
}
