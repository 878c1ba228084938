import { type Actor, actorRef } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { writeCalls } from "../calls/write/write-calls";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { invalidParameter, notFound } from "../domain-error";
import type { FeedPosition } from "../feed";
import type { DismissedDuplicate, DuplicateMark, PossibleDuplicate } from "./schema";

/**
 * Possible duplicates (docs/incidents.md, "Possible duplicates"), the one door of
 * `incident_duplicates`: two open incidents close in place and time that grouping did not join. The
 * statement that places calls marks them (markPossibleDuplicates, in lib/incidents/grouping.ts's
 * placementQuery); a dispatcher merges the pair (the merged incident's rows go with it) or dismisses
 * it here. Every write takes a change number (migration possible_duplicates): the change feed
 * carries it, so every dashboard redraws both incidents.
 */

/**
 * The CTE that marks pairs, given `marks`, a CTE of (incident_id, other_id, distance_m,
 * seconds_apart): one row per pair, the smaller id first, the nearest kept; a pair marked before
 * (dismissed or not) stays as it is.
 */
export const markPossibleDuplicates = Prisma.sql`marked AS (
      INSERT INTO incident_duplicates (incident_id, other_id, distance_m, seconds_apart)
      SELECT DISTINCT ON (least(incident_id, other_id), greatest(incident_id, other_id))
        least(incident_id, other_id), greatest(incident_id, other_id), distance_m, seconds_apart
      FROM marks
      ORDER BY least(incident_id, other_id), greatest(incident_id, other_id), distance_m
      ON CONFLICT (incident_id, other_id) DO NOTHING
    )`;

interface DuplicateRow {
  incident_id: string;
  other_id: string;
  emergency_type: string;
  location: string;
  distance_m: number;
  seconds_apart: number;
  found_at: Date;
}

/**
 * The possible duplicates of incidents `ids` (a page's, at most a few hundred): pairs not dismissed
 * whose other incident is open, nearest first; two index probes per incident.
 */
export async function readPossibleDuplicates(db: Pick<Db, "$queryRaw">, ids: readonly string[]): Promise<Map<string, PossibleDuplicate[]>> {
  const byIncident = new Map<string, PossibleDuplicate[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byIncident;
  const rows = await db.$queryRaw<DuplicateRow[]>`
    SELECT p.mine AS incident_id, o.id AS other_id, o.emergency_type, o.location, d.distance_m, d.seconds_apart, d.found_at
    FROM incident_duplicates d
    CROSS JOIN LATERAL (VALUES (d.incident_id, d.other_id), (d.other_id, d.incident_id)) AS p(mine, other)
    JOIN incidents o ON o.id = p.other
    WHERE (d.incident_id = ANY(${ids}::text[]) OR d.other_id = ANY(${ids}::text[]))
      AND p.mine = ANY(${ids}::text[])
      AND d.dismissed_at IS NULL AND o.status IN ('active', 'dispatched', 'enroute')
    ORDER BY d.distance_m, d.id`;
  for (const row of rows) {
    byIncident.get(row.incident_id)?.push({
      incident_id: row.other_id,
      emergency_type: row.emergency_type,
      location: row.location,
      distance_m: Math.round(row.distance_m),
      seconds_apart: row.seconds_apart,
      found_at: Math.floor(row.found_at.getTime() / 1000),
    });
  }
  return byIncident;
}

/**
 * POST /api/incidents/{id}/dismiss-duplicate: a dispatcher says the two incidents are two
 * emergencies. The mark stays, dismissed (who, when), so grouping never marks the pair again; one
 * audit row `incident.duplicate_dismissed`. NOT_FOUND when the pair is not marked (or was dismissed).
 */
export async function dismissPossibleDuplicate(id: string, otherId: string, actor: Actor): Promise<DismissedDuplicate> {
  if (id === otherId) throw invalidParameter("Invalid other_id", "An incident is not a duplicate of itself");
  return writeCalls(async (writes) => {
    await writes.lockChangeFeed();
    const [first, second] = [id, otherId].sort();
    const [dismissed] = await writes.tx.$queryRaw<{ dismissed_at: Date }[]>`
      UPDATE incident_duplicates SET dismissed_at = now(), dismissed_by = ${actorRef(actor)}, dismissed_by_name = ${actor.name}
      WHERE incident_id = ${first} AND other_id = ${second} AND dismissed_at IS NULL
      RETURNING dismissed_at`;
    if (!dismissed) throw notFound(`Incident ${otherId} is not marked as a possible duplicate of ${id}`);
    await recordAudit(writes.tx, actor, {
      action: "incident.duplicate_dismissed",
      target: { kind: "incident", id },
      after: { other_id: otherId },
    });
    return {
      incident_id: id,
      other_id: otherId,
      dismissed_at: Math.floor(dismissed.dismissed_at.getTime() / 1000),
      dismissed_by: actor.name,
    };
  });
}

/** Marks and dismissals after change `after`, in change order, at most `limit` (lib/board/feed-pages.ts merges them in). */
export async function readDuplicateChanges(db: Pick<Db, "$queryRaw">, after: FeedPosition, limit: number): Promise<{ change: FeedPosition; duplicate: DuplicateMark }[]> {
  const rows = await db.$queryRaw<{ incident_id: string; other_id: string; dismissed: boolean; change_number: bigint }[]>`
    SELECT incident_id, other_id, dismissed_at IS NOT NULL AS dismissed, change_number FROM incident_duplicates
    WHERE change_number > ${after} ORDER BY change_number LIMIT ${limit}`;
  return rows.map((row) => ({
    change: Number(row.change_number),
    duplicate: { incident_id: row.incident_id, other_id: row.other_id, dismissed: row.dismissed },
  }));
}
