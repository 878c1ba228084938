import { writeCalls } from "../calls/write/write-calls";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { moveNotesWithPlacedCalls } from "../notes/move";
import { GROUPING_BATCH, placementQuery } from "./grouping";

/**
 * Groups up to `limit` waiting calls in one transaction and answers how many it grouped. The
 * transaction takes the change feed's lock first (the lock order of every writer of calls), so
 * groupers of several instances take turns, and the lookup sees every committed merge, split and
 * status change: nothing can close or remove a chosen incident before the calls move into it.
 */
export async function groupPendingCalls(db: Db, limit = GROUPING_BATCH): Promise<number> {
  return writeCalls(
    async (writes) => {
      await writes.lockChangeFeed();
      const placed = await writes.tx.$queryRaw<{ id: string; incident_id: string }[]>(placementQuery(Prisma.sql`
        SELECT id, incident_id AS own, change_number AS seq, emergency_type AS type, occurred_at AS at,
          latitude AS lat, longitude AS lon, location_precision AS precision, location, caller_phone AS phone, simulation, exercise_id
        FROM calls WHERE grouping_pending ORDER BY change_number LIMIT ${limit}`));
      if (placed.length > 0) {
        await moveNotesWithPlacedCalls(writes.tx, placed);
        await writes.placeCalls(placed);
      }
      return placed.length;
    },
    { db },
  );
}
