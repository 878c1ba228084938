import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import { withDatabase } from "../db/with-database";
import { readAcknowledgementChanges } from "../acknowledgements/changes";
import { type FeedPosition, type FeedSource, readFeedPage } from "../feed";
import { readDuplicateChanges } from "../incidents/duplicates";
import { readNoteChanges } from "../notes/changes";
import { readPlanChanges } from "../units/plans";
import { readUnitChanges } from "../units/read";
import type { CallChange, ChangePage, FeedChange } from "./schema";

/**
 * The change feed's pages as the dashboard, its stream and GET /api/calls/changes read them
 * (lib/feed/read.ts): each call once, at its latest state, with the notes, acknowledgements,
 * possible duplicates, units and response plans numbered between them, in position order.
 */

type ChangedRow = ListedCall & { changeNumber: bigint };

function toCallChange(row: ChangedRow): CallChange {
  return { change: Number(row.changeNumber), call: toCallRecord(row) };
}

async function readCallChanges(db: Pick<Db, "$queryRaw">, after: FeedPosition, limit: number): Promise<CallChange[]> {
  const rows = await db.$queryRaw<ChangedRow[]>(Prisma.sql`
    SELECT ${selectList}, c.change_number AS "changeNumber"
    FROM calls c
    WHERE c.change_number > ${after}
    ORDER BY c.change_number
    LIMIT ${limit}`);
  return rows.map(toCallChange);
}

const FEED_SOURCES: readonly FeedSource<FeedChange>[] = [
  readCallChanges, readNoteChanges, readAcknowledgementChanges, readDuplicateChanges, readUnitChanges, readPlanChanges,
];

export function readChangesFrom(db: Db, after: FeedPosition, limit: number): Promise<ChangePage> {
  return readFeedPage(db, FEED_SOURCES, after, limit);
}

/** GET /api/calls/changes: the changes after `after`, in position order. */
export function readChanges(after: FeedPosition, limit: number): Promise<ChangePage> {
  return withDatabase((db) => readChangesFrom(db, after, limit));
}
