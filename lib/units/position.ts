import { withFeedLock } from "../feed";
import { notFound } from "../domain-error";
import { getUnit } from "./read";
import type { Unit, UnitPosition } from "./schema";
import { recordPosition } from "./write";

/**
 * POST /api/units/{id}/position: a fix from an AVL gateway or a mobile app (docs/units.md,
 * "Positions"). The unit row keeps the latest fix; a unit row is in the change feed, so it takes
 * the feed's lock and its turn like any writer of it. Positions are not state changes: no history
 * row, no audit entry (a gateway reports every few seconds).
 */
export async function reportPosition(id: string, position: UnitPosition): Promise<Unit> {
  await withFeedLock(async (tx) => {
    const [unit] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM units WHERE id = ${id} FOR UPDATE`;
    if (!unit) throw notFound(`No unit with id ${id}`);
    await recordPosition(tx, id, position);
  });
  return getUnit(id);
}
