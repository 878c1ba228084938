import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { FeedPosition } from "../feed";
import { ACKNOWLEDGEMENT_COLUMNS, type AcknowledgementRow, toAcknowledgement } from "./record";
import type { Acknowledgement } from "./schema";

/** Acknowledgements kept after change `after`, in change order, at most `limit` (lib/board/feed-pages.ts merges them in). */
export async function readAcknowledgementChanges(
  db: Pick<Db, "$queryRaw">,
  after: FeedPosition,
  limit: number,
): Promise<{ change: FeedPosition; acknowledgement: Acknowledgement }[]> {
  const rows = await db.$queryRaw<(AcknowledgementRow & { change_number: bigint })[]>(Prisma.sql`
    SELECT ${Prisma.raw(ACKNOWLEDGEMENT_COLUMNS)}, a.change_number FROM incident_acknowledgements a
    WHERE a.change_number > ${after} ORDER BY a.change_number LIMIT ${limit}`);
  return rows.map((row) => ({ change: Number(row.change_number), acknowledgement: toAcknowledgement(row) }));
}
