import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import { withCallStore } from "../calls/with-call-store";
import { lastAcknowledgementChange, readAcknowledgementChanges } from "../acknowledgements/changes";
import { lastDuplicateChange, readDuplicateChanges } from "../incidents/duplicates";
import { lastNoteChange, readNoteChanges } from "../notes/changes";
import { lastUnitChange, readUnitChanges } from "../units/read";
import type { CallChange, ChangePage, FeedChange } from "./schema";

/**
 * The change feed: every insert and update of a call takes the next change number, under one
 * transaction-level advisory lock (migration live_change_feed; lib/calls/write/lock.ts
 * CHANGE_FEED_LOCK), so committed numbers always form
 * a prefix: a reader that has seen every change up to n can never be passed by a late commit of a
 * number below n. Each call row holds only its latest number, so "calls with a number above n, in
 * number order" is a gapless, resumable feed in which each call appears once, at its latest state.
 * Incident notes take numbers from the same sequence under the same lock (migration
 * incident_notes), and so do acknowledgements of incidents' alerts (migration
 * incident_acknowledgements), and so do possible duplicates at their mark and their dismissal
 * (migration possible_duplicates), so the feed is these tables' rows merged in number order. Incidents and
 * incident merges are numbered from it too (migration incident_events), for outbound events only:
 * they count in the head, not in the feed's pages. Units are in the pages too, each at its latest
 * state (migration units); their state changes and assignments are numbered for outbound events
 * only, like incidents.
 */

type ChangedRow = ListedCall & { changeNumber: bigint };

export function toCallChange(row: ChangedRow): CallChange {
  return { change: Number(row.changeNumber), call: toCallRecord(row) };
}

export async function readChangesFrom(db: Db, after: number, limit: number): Promise<ChangePage> {
  const rows = await db.$queryRaw<ChangedRow[]>(Prisma.sql`
    SELECT ${selectList}, c.change_number AS "changeNumber"
    FROM calls c
    WHERE c.change_number > ${after}
    ORDER BY c.change_number
    LIMIT ${limit + 1}`);
  const merged: FeedChange[] = [
    ...rows.map(toCallChange),
    ...(await readNoteChanges(db, after, limit + 1)),
    ...(await readAcknowledgementChanges(db, after, limit + 1)),
    ...(await readDuplicateChanges(db, after, limit + 1)),
    ...(await readUnitChanges(db, after, limit + 1)),
  ].sort((a, b) => a.change - b.change);
  const changes = merged.slice(0, limit);
  return { changes, cursor: changes.at(-1)?.change ?? after, has_more: merged.length > limit };
}

/** GET /api/calls/changes: the calls changed after `after`, in change order. */
export function readChanges(after: number, limit: number): Promise<ChangePage> {
  return withCallStore((db) => readChangesFrom(db, after, limit));
}

/**
 * The feed's head as SQL: the newest number a call, a note, an acknowledgement, a possible duplicate, an incident, an
 * incident merge or a unit's row took (0 before any; incidents, merges and units are numbered for
 * outbound events, migrations incident_events and units).
 */
export const feedHead = Prisma.sql`GREATEST((SELECT COALESCE(max(change_number), 0) FROM calls), ${lastNoteChange}, ${lastAcknowledgementChange}, ${lastDuplicateChange},
  (SELECT COALESCE(max(change_number), 0) FROM incidents), (SELECT COALESCE(max(change_number), 0) FROM incident_merges), ${lastUnitChange})`;

/** The newest committed change number (0 before any change): every change up to it is readable. */
export async function currentCursor(db: Pick<Db, "$queryRaw">): Promise<number> {
  // One round trip: the board and the listing cache read it on every request.
  const [{ cursor }] = await db.$queryRaw<{ cursor: bigint }[]>(Prisma.sql`SELECT ${feedHead}::bigint AS cursor`);
  return Number(cursor);
}
