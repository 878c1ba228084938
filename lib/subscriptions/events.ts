import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/record";
import type { CallRecord } from "../calls/schema";
import { CLOSED_STATUSES } from "../calls/workflow";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { IncidentRecord } from "../incidents/schema";
import { currentCursor } from "../live/feed";
import type { Precision } from "../geocoding/types";
import type { CallStatus } from "../vocabulary";
import type { EventType } from "./event-types";

/**
 * Outbound events, derived from the change feed (docs/integrations.md, "Events"). The feed holds
 * each call once, at its latest change; the change trigger also stamps on the row the change at
 * which the call was announced (first written not waiting for the grouper) and the change of its
 * latest status move. Each event sits at one change number, its stamp, and a subscription sends the
 * events whose stamps fall in its window of changes (cursor, upTo], in stamp order:
 *
 * - call.created        at the call's announced change                  id evt_<announced>_call.created
 * - incident.created    at the announced change of the incident's first announced call
 *                                                                        id evt_<announced>_incident.created
 * - call.status_changed at the call's latest status change, when after its announcement
 *                                                                        id evt_<status change>_call.status_changed
 * - incident.updated    at the incident's latest change (the highest change of its announced calls;
 *   or .closed          changes of several of its calls give one event, at the last), unless that is
 *                       its creation; .closed when the incident's status is final
 *                                                                        id evt_<change>_incident.<kind>
 *
 * A stamp lies in exactly one window, and every change up to the feed's head is committed (the
 * feed is gapless), so each event is sent once, whatever changes folded into the call's row since.
 * A status that moved twice before it was read gives one event, for the latest move; a call waiting
 * for the grouper gives none until the grouper places it. Ids depend on the change alone, never on
 * the subscription: a receiver drops a redelivery (after a replay) by webhook-id.
 */

export interface FeedEntry {
  change: number;
  changedAt: Date;
  call: CallRecord;
  /** The call's internal id (its status history). */
  callRowId: string;
  announcedChange: number | null;
  statusChange: number | null;
  waiting: boolean;
  incident: IncidentRecord | null;
  /** The highest change of the incident's announced calls. */
  incidentLatest: number | null;
  /** The lowest announced change of the incident's calls. */
  incidentFirstAnnounced: number | null;
}

export interface DerivedEvent {
  id: string;
  type: EventType;
  change: number;
  entry: FeedEntry;
}

type FeedRow = ListedCall & {
  changeNumber: bigint;
  changedAt: Date;
  announcedChange: bigint | null;
  statusChange: bigint | null;
  groupingPending: boolean;
  incidentEmergencyType: string | null;
  incidentSeverity: string | null;
  incidentStatus: string | null;
  incidentLocation: string | null;
  incidentLatitude: number | null;
  incidentLongitude: number | null;
  incidentPrecision: string | null;
  incidentFirstCallAt: Date | null;
  incidentLastCallAt: Date | null;
  incidentCallCount: number | null;
  incidentLatest: bigint | null;
  incidentFirstAnnounced: bigint | null;
};

const numberOrNull = (value: bigint | null) => (value === null ? null : Number(value));

function toEntry(row: FeedRow): FeedEntry {
  const incident: IncidentRecord | null =
    row.incidentStatus === null
      ? null
      : {
          id: row.incidentId,
          emergency_type: row.incidentEmergencyType!,
          severity: row.incidentSeverity!,
          status: row.incidentStatus as CallStatus,
          location: row.incidentLocation!,
          latitude: row.incidentLatitude,
          longitude: row.incidentLongitude,
          location_precision: row.incidentPrecision as Precision | null,
          first_call_at: row.incidentFirstCallAt!.toISOString(),
          last_call_at: row.incidentLastCallAt!.toISOString(),
          call_count: row.incidentCallCount!,
        };
  return {
    change: Number(row.changeNumber),
    changedAt: row.changedAt,
    call: toCallRecord(row),
    callRowId: row.id,
    announcedChange: numberOrNull(row.announcedChange),
    statusChange: numberOrNull(row.statusChange),
    waiting: row.groupingPending,
    incident,
    incidentLatest: numberOrNull(row.incidentLatest),
    incidentFirstAnnounced: numberOrNull(row.incidentFirstAnnounced),
  };
}

/**
 * The calls with a stamp in (after, upTo]: changed, announced or moved status there. upTo is at most
 * `span` changes after `after` and never past the feed's head.
 */
export async function readWindow(db: Db, after: number, span: number): Promise<{ entries: FeedEntry[]; upTo: number }> {
  const upTo = Math.min(await currentCursor(db), after + span);
  if (upTo <= after) return { entries: [], upTo: after };
  // The incident's latest and first-announced changes are read once per incident of the window.
  const rows = await db.$queryRaw<FeedRow[]>(Prisma.sql`
    WITH w AS (
      SELECT ${selectList}, c.change_number AS "changeNumber", c.changed_at AS "changedAt",
        c.announced_change AS "announcedChange", c.status_change AS "statusChange", c.grouping_pending AS "groupingPending"
      FROM calls c
      WHERE (c.change_number > ${after} AND c.change_number <= ${upTo})
        OR (c.announced_change > ${after} AND c.announced_change <= ${upTo})
        OR (c.status_change > ${after} AND c.status_change <= ${upTo})
    ), o AS (
      SELECT m.incident_id, max(m.change_number) AS latest, min(m.announced_change) AS first_announced
      FROM calls m WHERE m.incident_id IN (SELECT "incidentId" FROM w) AND NOT m.grouping_pending
      GROUP BY m.incident_id
    )
    SELECT w.*,
      i.emergency_type AS "incidentEmergencyType", i.severity AS "incidentSeverity", i.status AS "incidentStatus",
      i.location AS "incidentLocation", i.latitude AS "incidentLatitude", i.longitude AS "incidentLongitude",
      i.location_precision AS "incidentPrecision",
      i.first_call_at AS "incidentFirstCallAt", i.last_call_at AS "incidentLastCallAt", i.call_count AS "incidentCallCount",
      o.latest AS "incidentLatest", o.first_announced AS "incidentFirstAnnounced"
    FROM w
    LEFT JOIN incidents i ON i.id = w."incidentId"
    LEFT JOIN o ON o.incident_id = w."incidentId"`);
  return { entries: rows.map(toEntry), upTo };
}

/** Events of the same stamp go out in this order. */
const ORDER: Record<EventType, number> = {
  "call.created": 0,
  "incident.created": 1,
  "call.status_changed": 2,
  "incident.updated": 3,
  "incident.closed": 4,
};

/** Every event with a stamp in (after, upTo] of the window's entries, in stamp order. */
export function eventsOf(entries: readonly FeedEntry[], after: number, upTo: number): DerivedEvent[] {
  const events: DerivedEvent[] = [];
  const inWindow = (stamp: number | null): stamp is number => stamp !== null && stamp > after && stamp <= upTo;
  for (const entry of entries) {
    if (entry.waiting) continue;
    const add = (type: EventType, change: number) => events.push({ id: `evt_${change}_${type}`, type, change, entry });
    const announced = entry.announcedChange;
    if (inWindow(announced)) {
      add("call.created", announced);
      if (entry.incident && entry.incidentFirstAnnounced === announced) add("incident.created", announced);
    }
    if (inWindow(entry.statusChange) && announced !== null && entry.statusChange > announced) add("call.status_changed", entry.statusChange);
    const latest = entry.incidentLatest;
    if (entry.incident && latest === entry.change && inWindow(latest) && latest !== entry.incidentFirstAnnounced) {
      add((CLOSED_STATUSES as readonly string[]).includes(entry.incident.status) ? "incident.closed" : "incident.updated", latest);
    }
  }
  return events.sort((a, b) => a.change - b.change || ORDER[a.type] - ORDER[b.type]);
}
