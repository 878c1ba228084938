import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/record";
import type { CallRecord } from "../calls/schema";
import { CLOSED_STATUSES } from "../calls/workflow";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { IncidentRecord } from "../incidents/schema";
import type { CallStatus } from "../vocabulary";
import type { EventType } from "./schema";

/**
 * Outbound events, derived from the change feed (docs/integrations.md, "Events"). The feed holds
 * each call once, at its latest change; the change trigger also stamps on the row the change at
 * which the call was announced (first written not waiting for the grouper) and the change of its
 * latest status move. A subscription reads the feed after its cursor and compares those stamps
 * with its `base`, the cursor it had when it last reached the head of the feed:
 *
 * - call.created        the call's announced change is above base        id evt_<announced>_call.created
 * - call.status_changed its status change is above base and after its announcement
 *                                                                          id evt_<status change>_call.status_changed
 * - incident.*          the call is its incident's latest-changed call (changes of several calls
 *                       of one incident give one incident event, at the last of them):
 *                       incident.created when every call of the incident was announced above base,
 *                       incident.closed when the incident's status is final, else incident.updated
 *                                                                          id evt_<change>_incident.<kind>
 *
 * Ids depend on the change alone, never on the subscription, so a receiver drops a redelivery by
 * webhook-id. Calls waiting for the grouper give no event yet: they do once the grouper places them.
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

/** One page of the change feed (calls with a change number above `after`, in order), with what events need. */
export async function readFeedEntries(db: Db, after: number, limit: number): Promise<FeedEntry[]> {
  const rows = await db.$queryRaw<FeedRow[]>(Prisma.sql`
    SELECT ${selectList}, c.change_number AS "changeNumber", c.changed_at AS "changedAt",
      c.announced_change AS "announcedChange", c.status_change AS "statusChange", c.grouping_pending AS "groupingPending",
      i.emergency_type AS "incidentEmergencyType", i.severity AS "incidentSeverity", i.status AS "incidentStatus",
      i.location AS "incidentLocation", i.latitude AS "incidentLatitude", i.longitude AS "incidentLongitude",
      i.first_call_at AS "incidentFirstCallAt", i.last_call_at AS "incidentLastCallAt", i.call_count AS "incidentCallCount",
      o.latest AS "incidentLatest", o.first_announced AS "incidentFirstAnnounced"
    FROM calls c
    LEFT JOIN incidents i ON i.id = c.incident_id
    LEFT JOIN LATERAL (
      SELECT max(m.change_number) AS latest, min(m.announced_change) AS first_announced
      FROM calls m WHERE m.incident_id = c.incident_id AND NOT m.grouping_pending
    ) o ON true
    WHERE c.change_number > ${after}
    ORDER BY c.change_number
    LIMIT ${limit}`);
  return rows.map(toEntry);
}

/** The events of one feed entry for a subscription whose base is `base`, in the order they are sent. */
export function eventsOf(entry: FeedEntry, base: number): DerivedEvent[] {
  if (entry.waiting) return [];
  const events: DerivedEvent[] = [];
  const add = (type: EventType, change: number) => events.push({ id: `evt_${change}_${type}`, type, change, entry });
  const announced = entry.announcedChange;
  if (announced !== null && announced > base) add("call.created", announced);
  if (entry.statusChange !== null && entry.statusChange > base && announced !== null && entry.statusChange > announced) {
    add("call.status_changed", entry.statusChange);
  }
  if (entry.incident && entry.incidentLatest === entry.change) {
    if (entry.incidentFirstAnnounced !== null && entry.incidentFirstAnnounced > base) add("incident.created", entry.change);
    if ((CLOSED_STATUSES as readonly string[]).includes(entry.incident.status)) add("incident.closed", entry.change);
    else if (events.at(-1)?.type !== "incident.created") add("incident.updated", entry.change);
  }
  return events;
}
