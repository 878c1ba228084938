import type { Db } from "../db/client";
import { readIncidentEido } from "../eido/export";
import type { DerivedEvent } from "./events";
import type { BodyFormat } from "./event-types";

/**
 * An event's body. mayday: `{ id, type, change, occurred_at, data }`, data as the event's type
 * gives it (lib/subscriptions/events.ts). eido: the event's incident as an EIDO (lib/eido; a
 * merged-away incident's answers with its merge), for every event type; its type is in the
 * mayday-event-type header.
 */
export function maydayBody(event: DerivedEvent) {
  return { id: event.id, type: event.type, change: event.change, occurred_at: event.occurredAt.toISOString(), data: event.data };
}

export async function eventBody(db: Db, format: BodyFormat, event: DerivedEvent): Promise<string> {
  if (format === "eido" && event.incidentId !== null) {
    const eido = await readIncidentEido(db, event.incidentId);
    if (eido) return JSON.stringify(eido);
  }
  return JSON.stringify(maydayBody(event));
}
