import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import type { FeedPosition } from "../feed";
import type { Unit } from "./schema";
import { UNIT_STATE_RULES, UNIT_STATES } from "./states";
import { toUnit, UNIT_COLUMNS, type UnitRow } from "./to-unit";

/** GET /api/units/{id}. */
export function getUnit(id: string): Promise<Unit> {
  return withDatabase(async (db) => {
    const [row] = await db.$queryRaw<UnitRow[]>(Prisma.sql`SELECT ${Prisma.raw(UNIT_COLUMNS)} FROM units u WHERE u.id = ${id}`);
    if (!row) throw notFound(`No unit with id ${id}`);
    return toUnit(row);
  });
}

/** The centre's own units, and the simulated units of exercises not yet over (an ended exercise's units leave the board). */
const ON_THE_BOARD = Prisma.sql`(u.exercise_id IS NULL
  OR EXISTS (SELECT 1 FROM exercises e WHERE e.id = u.exercise_id AND e.state IN ('planned', 'running', 'paused')))`;

/** GET /api/units: the roster by call sign (a centre's roster is hundreds of units, not pages of them). */
export function listUnits(): Promise<{ units: Unit[] }> {
  return withDatabase(async (db) => ({ units: (await unitsByCallSign(db)).map(toUnit) }));
}

/** The units of `ids`, or every unit on the board, by call sign. */
export function unitsByCallSign(db: Pick<Db, "$queryRaw">, ids?: readonly string[]): Promise<UnitRow[]> {
  const only = ids === undefined ? Prisma.sql`WHERE ${ON_THE_BOARD}` : Prisma.sql`WHERE u.id = ANY(${ids}::text[])`;
  return db.$queryRaw<UnitRow[]>(Prisma.sql`SELECT ${Prisma.raw(UNIT_COLUMNS)} FROM units u ${only} ORDER BY lower(u.call_sign)`);
}

/** Units changed after change `after` (each at its latest state), in change order, at most `limit` (lib/board/feed-pages.ts merges them with the calls). */
export async function readUnitChanges(db: Pick<Db, "$queryRaw">, after: FeedPosition, limit: number): Promise<{ change: FeedPosition; unit: Unit }[]> {
  const rows = await db.$queryRaw<(UnitRow & { change_number: bigint })[]>(Prisma.sql`
    SELECT ${Prisma.raw(UNIT_COLUMNS)}, u.change_number FROM units u
    WHERE u.change_number > ${after} ORDER BY u.change_number LIMIT ${limit}`);
  return rows.map((row) => ({ change: Number(row.change_number), unit: toUnit(row) }));
}

/** A unit sent to an incident, for its EIDO (lib/eido): each assignment with the unit's moves while it lasted. */
export interface IncidentAssignment {
  unit_id: string;
  call_sign: string;
  name: string;
  type: string;
  /** The unit's state now: what it is doing for the incident while the assignment is open. */
  unit_state: string;
  assigned_at: Date;
  assigned_by: string;
  assigned_by_name: string;
  cleared_at: Date | null;
  moves: { state: string; at: Date; changed_by: string; changed_by_name: string }[];
}

/** The moves a unit makes for an incident after its dispatch (the clearing is the assignment's `cleared_at`). */
const MOVES_WHILE_ASSIGNED = UNIT_STATES.filter((state) => UNIT_STATE_RULES[state].assigned && state !== "dispatched");

/**
 * Every assignment to the incident, cleared or not, oldest first, with the moves the unit made
 * between its assignment and its clearing (its dispatched row aside: the assignment is that move).
 * One probe of (incident_id, assigned_at), then one range of (unit_id, at) per assignment.
 */
export function incidentAssignments(db: Pick<Db, "$queryRaw">, incidentId: string): Promise<IncidentAssignment[]> {
  return db.$queryRaw<IncidentAssignment[]>`
    SELECT a.unit_id, u.call_sign, u.name, u.type, u.state AS unit_state, a.assigned_at, a.assigned_by, a.assigned_by_name, a.cleared_at,
      COALESCE((
        SELECT json_agg(json_build_object('state', h.state, 'at', h.at, 'changed_by', h.changed_by, 'changed_by_name', h.changed_by_name)
          ORDER BY h.at, h.id)
        FROM unit_state_changes h
        WHERE h.unit_id = a.unit_id AND h.at >= a.assigned_at AND h.at <= COALESCE(a.cleared_at, 'infinity')
          AND h.state = ANY(${MOVES_WHILE_ASSIGNED}::text[])
      ), '[]') AS moves
    FROM unit_assignments a JOIN units u ON u.id = a.unit_id
    WHERE a.incident_id = ${incidentId}
    ORDER BY a.assigned_at, a.id`.then((rows) =>
    rows.map((row) => ({ ...row, moves: row.moves.map((move) => ({ ...move, at: new Date(move.at) })) })),
  );
}
