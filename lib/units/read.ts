import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import type { Unit } from "./schema";
import { toUnit, UNIT_COLUMNS, type UnitRow } from "./to-unit";

/** GET /api/units/{id}. */
export function getUnit(id: string): Promise<Unit> {
  return withDatabase(async (db) => {
    const [row] = await db.$queryRaw<UnitRow[]>(Prisma.sql`SELECT ${Prisma.raw(UNIT_COLUMNS)} FROM units u WHERE u.id = ${id}`);
    if (!row) throw notFound(`No unit with id ${id}`);
    return toUnit(row);
  });
}

/** GET /api/units: the roster by call sign (a centre's roster is hundreds of units, not pages of them). */
export function listUnits(): Promise<{ units: Unit[] }> {
  return withDatabase(async (db) => ({ units: (await unitsByCallSign(db)).map(toUnit) }));
}

export function unitsByCallSign(db: Pick<Db, "$queryRaw">, ids?: readonly string[]): Promise<UnitRow[]> {
  const only = ids === undefined ? Prisma.empty : Prisma.sql`WHERE u.id = ANY(${ids}::text[])`;
  return db.$queryRaw<UnitRow[]>(Prisma.sql`SELECT ${Prisma.raw(UNIT_COLUMNS)} FROM units u ${only} ORDER BY lower(u.call_sign)`);
}

/** Units changed after change `after` (each at its latest state), in change order, at most `limit` (lib/live/feed.ts merges them with the calls). */
export async function readUnitChanges(db: Pick<Db, "$queryRaw">, after: number, limit: number): Promise<{ change: number; unit: Unit }[]> {
  const rows = await db.$queryRaw<(UnitRow & { change_number: bigint })[]>(Prisma.sql`
    SELECT ${Prisma.raw(UNIT_COLUMNS)}, u.change_number FROM units u
    WHERE u.change_number > ${after} ORDER BY u.change_number LIMIT ${limit}`);
  return rows.map((row) => ({ change: Number(row.change_number), unit: toUnit(row) }));
}

/** The newest change number a unit, its state changes or assignments took (0 before any), as a scalar subquery for the feed's head. */
export const lastUnitChange = Prisma.sql`GREATEST((SELECT COALESCE(max(change_number), 0) FROM units),
  (SELECT COALESCE(max(change_number), 0) FROM unit_state_changes), (SELECT COALESCE(max(change_number), 0) FROM unit_assignments))`;
