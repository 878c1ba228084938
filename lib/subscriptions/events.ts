import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import type { CallRecord } from "../calls/schema";
import { CLOSED_STATUSES } from "../calls/workflow";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { type IncidentFields, toIncidentRecord } from "../incidents/to-incident-record";
import type { IncidentRecord } from "../incidents/schema";
import { type FeedPosition, readFeedHead } from "../feed";
import { NOTE_COLUMNS, type NoteRow, toNote } from "../notes/to-note";
import type { Note } from "../notes/schema";
import { toUnit, UNIT_COLUMNS, type UnitRow } from "../units/to-unit";
import type { Unit } from "../units/schema";
import type { EventType } from "./event-types";

/**
 * Outbound events, derived from the change feed (docs/integrations.md, "Events"). Every row of the
 * feed (calls, incidents, incident merges, notes) holds its latest change number; the change
 * trigger also stamps on the row the change at which it was announced (first written not waiting
 * for the grouper; a note: kept) and, on a call, the change of its latest status move. Each event
 * sits at one change number, its stamp, and a subscription sends the events whose stamps fall in
 * its window of changes (cursor, upTo], in stamp order:
 *
 * - call.created         at the call's announced change              id evt_<announced>_call.created
 * - call.status_changed  at the call's latest status change, when after its announcement
 * - call.updated         at the call's latest change, when after its announcement and not its
 *                        latest status change: its location, type, severity, line, incident...
 * - incident.created     at the incident's announced change
 * - incident.updated     at the incident's latest change, when after its announcement; .closed
 *   or .closed           when its status is then final
 * - incident.merged      at the change at which its calls all left it for another incident
 * - note.created         at the change at which the note was kept
 * - unit.state_changed   at each of a unit's state changes (unit_state_changes), the unit as it is now
 * - unit.assigned        at the change at which the assignment was made
 *
 * A stamp lies in exactly one window, and every change up to the feed's head is committed (the
 * feed is gapless), so each event is sent once, whatever changes folded into the row since, and
 * carries the row's state when read. Ids depend on the change alone, never on the subscription: a
 * receiver drops a redelivery (after a replay) by webhook-id.
 */

/** What a subscription's filters read of an event (lib/subscriptions/subscription-row.ts wants). */
export interface EventSubject {
  scenario: string | null;
  simulation: boolean;
  severity: string;
}

export type EventData =
  | { call: CallRecord }
  | { incident: IncidentRecord; call: CallRecord | null }
  | { incident: IncidentRecord; merged_into: string }
  | { note: Note; incident: IncidentRecord }
  | { unit: Unit; state_change: UnitStateChangeData; incident: IncidentRecord | null }
  | { unit: Unit; assignment: UnitAssignmentData; incident: IncidentRecord };

export interface UnitStateChangeData {
  from_state: string | null;
  state: string;
  incident_id: string | null;
  at: string;
  by: string;
  position: { latitude: number; longitude: number } | null;
}

export interface UnitAssignmentData {
  incident_id: string;
  assigned_at: string;
  by: string;
  confirmed_from_state: string | null;
}

export interface DerivedEvent {
  id: string;
  type: EventType;
  change: FeedPosition;
  occurredAt: Date;
  /** The incident the event is about (the EIDO body's); a unit's state change may concern none. */
  incidentId: string | null;
  subject: EventSubject;
  data: EventData;
}

const inWindow = (stamp: bigint | null, after: FeedPosition, upTo: FeedPosition): stamp is bigint =>
  stamp !== null && stamp > BigInt(after) && stamp <= BigInt(upTo);

function event(type: EventType, change: bigint, occurredAt: Date, incidentId: string | null, subject: EventSubject, data: EventData): DerivedEvent {
  return { id: `evt_${change}_${type}`, type, change: Number(change), occurredAt, incidentId, subject, data };
}

type CallRow = ListedCall & { changedAt: Date; changeNumber: bigint; announcedChange: bigint | null; statusChange: bigint | null };

async function callEvents(db: Db, after: FeedPosition, upTo: FeedPosition): Promise<DerivedEvent[]> {
  const rows = await db.$queryRaw<CallRow[]>(Prisma.sql`
    SELECT ${selectList}, c.changed_at AS "changedAt", c.change_number AS "changeNumber",
      c.announced_change AS "announcedChange", c.status_change AS "statusChange"
    FROM calls c
    WHERE NOT c.grouping_pending AND ((c.announced_change > ${after} AND c.announced_change <= ${upTo})
      OR (c.status_change > ${after} AND c.status_change <= ${upTo})
      OR (c.change_number > ${after} AND c.change_number <= ${upTo}))`);
  return rows.flatMap((row) => {
    const call = toCallRecord(row);
    const subject = { scenario: call.scenario, simulation: call.simulation, severity: call.severity };
    const found: DerivedEvent[] = [];
    if (inWindow(row.announcedChange, after, upTo)) found.push(event("call.created", row.announcedChange, row.changedAt, call.incident_id, subject, { call }));
    if (inWindow(row.statusChange, after, upTo) && row.announcedChange !== null && row.statusChange > row.announcedChange) {
      found.push(event("call.status_changed", row.statusChange, row.changedAt, call.incident_id, subject, { call }));
    }
    if (
      inWindow(row.changeNumber, after, upTo) && row.announcedChange !== null && row.changeNumber > row.announcedChange &&
      row.changeNumber !== row.statusChange
    ) {
      found.push(event("call.updated", row.changeNumber, row.changedAt, call.incident_id, subject, { call }));
    }
    return found;
  });
}

/** An incident's listed columns but its id (which names its own column beside a note's). */
const incidentFields = Prisma.sql`i.emergency_type AS "emergencyType", i.severity, i.status, i.location, i.latitude, i.longitude,
  i.location_precision AS "locationPrecision", i.location_uncertainty_m AS "locationUncertaintyM",
  i.location_matched AS "locationMatched", i.first_call_at AS "firstCallAt", i.last_call_at AS "lastCallAt", i.call_count AS "callCount"`;

/** Each incident's latest call (by time): one probe of calls(incident_id, occurred_at, id) per incident. */
async function latestCalls(db: Db, incidentIds: readonly string[]): Promise<Map<string, CallRecord>> {
  if (incidentIds.length === 0) return new Map();
  const rows = await db.$queryRaw<ListedCall[]>(Prisma.sql`
    SELECT l.* FROM unnest(${[...new Set(incidentIds)]}::text[]) AS x(id)
    CROSS JOIN LATERAL (SELECT ${selectList} FROM calls c WHERE c.incident_id = x.id ORDER BY c.occurred_at DESC, c.id DESC LIMIT 1) l`);
  return new Map(rows.map((row) => [row.incidentId, toCallRecord(row)]));
}

type IncidentEventRow = IncidentFields & { change_number: bigint; changed_at: Date; announced_change: bigint | null; simulation: boolean };

async function incidentEvents(db: Db, after: FeedPosition, upTo: FeedPosition): Promise<DerivedEvent[]> {
  const rows = await db.$queryRaw<IncidentEventRow[]>(Prisma.sql`
    SELECT i.id, ${incidentFields}, i.change_number, i.changed_at, i.announced_change, i.simulation
    FROM incidents i
    WHERE i.announced_change IS NOT NULL AND ((i.announced_change > ${after} AND i.announced_change <= ${upTo})
      OR (i.change_number > ${after} AND i.change_number <= ${upTo}))`);
  const calls = await latestCalls(db, rows.map((row) => row.id));
  return rows.flatMap((row) => {
    const incident = toIncidentRecord(row);
    const call = calls.get(row.id) ?? null;
    const subject = { scenario: call?.scenario ?? null, simulation: row.simulation, severity: incident.severity };
    const data = { incident, call };
    const found: DerivedEvent[] = [];
    if (inWindow(row.announced_change, after, upTo)) found.push(event("incident.created", row.announced_change, row.changed_at, incident.id, subject, data));
    if (inWindow(row.change_number, after, upTo) && row.announced_change !== null && row.change_number > row.announced_change) {
      const closed = (CLOSED_STATUSES as readonly string[]).includes(incident.status);
      found.push(event(closed ? "incident.closed" : "incident.updated", row.change_number, row.changed_at, incident.id, subject, data));
    }
    return found;
  });
}

interface MergeRow {
  merged_id: string;
  into_id: string;
  record: IncidentFields;
  simulation: boolean;
  scenario: string | null;
  change_number: bigint;
  changed_at: Date;
}

async function mergeEvents(db: Db, after: FeedPosition, upTo: FeedPosition): Promise<DerivedEvent[]> {
  const rows = await db.$queryRaw<MergeRow[]>`
    SELECT merged_id, into_id, record, simulation, scenario, change_number, changed_at FROM incident_merges
    WHERE change_number > ${after} AND change_number <= ${upTo}`;
  return rows.map((row) => {
    const incident = toIncidentRecord(row.record);
    const subject = { scenario: row.scenario, simulation: row.simulation, severity: incident.severity };
    return event("incident.merged", row.change_number, row.changed_at, row.merged_id, subject, { incident, merged_into: row.into_id });
  });
}

type NoteEventRow = NoteRow & Omit<IncidentFields, "id"> & { announced_change: bigint; changed_at: Date; simulation: boolean };

async function noteEvents(db: Db, after: FeedPosition, upTo: FeedPosition): Promise<DerivedEvent[]> {
  const rows = await db.$queryRaw<NoteEventRow[]>(Prisma.sql`
    SELECT ${Prisma.raw(NOTE_COLUMNS)}, n.announced_change, n.changed_at, ${incidentFields}, i.simulation
    FROM incident_notes n JOIN incidents i ON i.id = n.incident_id
    WHERE n.announced_change > ${after} AND n.announced_change <= ${upTo}`);
  const calls = await latestCalls(db, rows.map((row) => row.incident_id));
  return rows.map((row) => {
    const incident = toIncidentRecord({ ...row, id: row.incident_id });
    const subject = { scenario: calls.get(row.incident_id)?.scenario ?? null, simulation: row.simulation, severity: incident.severity };
    return event("note.created", row.announced_change, row.changed_at, row.incident_id, subject, { note: toNote(row), incident });
  });
}

type IncidentSubjectRow = IncidentFields & { simulation: boolean };

/** The incidents unit events concern, each with its subject (its kind, its latest call's scenario). */
async function incidentsOf(db: Db, ids: readonly (string | null)[]): Promise<Map<string, { incident: IncidentRecord; subject: EventSubject }>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.$queryRaw<IncidentSubjectRow[]>(Prisma.sql`
    SELECT i.id, ${incidentFields}, i.simulation FROM incidents i WHERE i.id = ANY(${wanted}::text[])`);
  const calls = await latestCalls(db, wanted);
  return new Map(rows.map((row) => {
    const incident = toIncidentRecord(row);
    return [row.id, { incident, subject: { scenario: calls.get(row.id)?.scenario ?? null, simulation: row.simulation, severity: incident.severity } }];
  }));
}

/** A unit serving no incident: no scenario, real, no severity (a severity filter leaves it out). */
const NO_INCIDENT: EventSubject = { scenario: null, simulation: false, severity: "" };

type UnitStateEventRow = UnitRow & {
  change_number: bigint; changed_at: Date; from_state: string | null; new_state: string; change_incident: string | null; at: Date;
  changed_by_name: string; change_latitude: number | null; change_longitude: number | null;
};

async function unitStateEvents(db: Db, after: FeedPosition, upTo: FeedPosition): Promise<DerivedEvent[]> {
  const rows = await db.$queryRaw<UnitStateEventRow[]>(Prisma.sql`
    SELECT ${Prisma.raw(UNIT_COLUMNS)}, s.change_number, s.changed_at, s.from_state, s.state AS new_state, s.incident_id AS change_incident, s.at,
      s.changed_by_name, s.latitude AS change_latitude, s.longitude AS change_longitude
    FROM unit_state_changes s JOIN units u ON u.id = s.unit_id
    WHERE s.change_number > ${after} AND s.change_number <= ${upTo}`);
  const incidents = await incidentsOf(db, rows.map((row) => row.change_incident));
  return rows.map((row) => {
    const served = row.change_incident === null ? undefined : incidents.get(row.change_incident);
    const state_change = {
      from_state: row.from_state, state: row.new_state, incident_id: row.change_incident, at: row.at.toISOString(), by: row.changed_by_name,
      position: row.change_latitude === null || row.change_longitude === null ? null : { latitude: row.change_latitude, longitude: row.change_longitude },
    };
    const data = { unit: toUnit(row), state_change, incident: served?.incident ?? null };
    return event("unit.state_changed", row.change_number, row.changed_at, served ? row.change_incident : null, served?.subject ?? NO_INCIDENT, data);
  });
}

type AssignmentEventRow = UnitRow & {
  change_number: bigint; changed_at: Date; assigned_incident: string; assigned_at: Date; assigned_by_name: string; confirmed_from_state: string | null;
};

async function assignmentEvents(db: Db, after: FeedPosition, upTo: FeedPosition): Promise<DerivedEvent[]> {
  const rows = await db.$queryRaw<AssignmentEventRow[]>(Prisma.sql`
    SELECT ${Prisma.raw(UNIT_COLUMNS)}, a.change_number, a.changed_at, a.incident_id AS assigned_incident, a.assigned_at, a.assigned_by_name,
      a.confirmed_from_state
    FROM unit_assignments a JOIN units u ON u.id = a.unit_id
    WHERE a.change_number > ${after} AND a.change_number <= ${upTo}`);
  const incidents = await incidentsOf(db, rows.map((row) => row.assigned_incident));
  return rows.flatMap((row) => {
    const served = incidents.get(row.assigned_incident);
    if (!served) return [];
    const assignment = { incident_id: row.assigned_incident, assigned_at: row.assigned_at.toISOString(), by: row.assigned_by_name, confirmed_from_state: row.confirmed_from_state };
    return [event("unit.assigned", row.change_number, row.changed_at, row.assigned_incident, served.subject, { unit: toUnit(row), assignment, incident: served.incident })];
  });
}

/** Events of the same stamp go out in this order. */
const ORDER: Record<EventType, number> = {
  "call.created": 0,
  "call.status_changed": 1,
  "call.updated": 2,
  "incident.created": 3,
  "incident.updated": 4,
  "incident.closed": 5,
  "incident.merged": 6,
  "note.created": 7,
  "unit.assigned": 8,
  "unit.state_changed": 9,
};

/**
 * Every event with a stamp in the window after `after` (at most `span` changes, never past the
 * feed's head), in stamp order, and the window's end.
 */
export async function readWindow(db: Db, after: FeedPosition, span: number): Promise<{ events: DerivedEvent[]; upTo: FeedPosition }> {
  const upTo = Math.min(await readFeedHead(db), after + span);
  if (upTo <= after) return { events: [], upTo: after };
  const found = (
    await Promise.all([
      callEvents(db, after, upTo), incidentEvents(db, after, upTo), mergeEvents(db, after, upTo), noteEvents(db, after, upTo),
      unitStateEvents(db, after, upTo), assignmentEvents(db, after, upTo),
    ])
  ).flat();
  return { events: found.sort((a, b) => a.change - b.change || ORDER[a.type] - ORDER[b.type]), upTo };
}
