import { type Actor, actorRef } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { uuid7 } from "../db/uuid7";
import type { UnitFields } from "./schema";
import type { UnitState } from "./states";
import { UNIT_COLUMNS, type UnitRow } from "./to-unit";

/**
 * The one door of `units`, `unit_state_changes` and `unit_assignments` (docs/units.md): every
 * INSERT and UPDATE of them is here, in the caller's transaction, which has taken the change feed's
 * lock first (the tables' triggers take it too: lock order feed, then rows). A state moves only
 * through moveUnit, which writes its history row and its audit entry with it.
 */

type Tx = Pick<Db, "$queryRaw" | "$executeRaw">;

/** The unit, locked for the rest of the transaction; undefined when there is none. */
export async function lockUnits(tx: Tx, ids: readonly string[]): Promise<UnitRow[]> {
  return tx.$queryRaw<UnitRow[]>(Prisma.sql`
    SELECT ${Prisma.raw(UNIT_COLUMNS)} FROM units u WHERE u.id = ANY(${ids}::text[]) ORDER BY u.id FOR UPDATE`);
}

/**
 * New units, each in its first state (available or out of service) with that state as its first
 * history row, in one statement however many (a roster file of UNIT_IMPORT_MAX_ROWS: row by row it
 * outlasted the transaction's time limit); answered in the order given. `exerciseId`: an
 * exercise's simulated units.
 */
export async function insertUnits(tx: Tx, units: readonly UnitFields[], actor: Actor, exerciseId: string | null = null): Promise<UnitRow[]> {
  if (units.length === 0) return [];
  const column = <T>(value: (fields: UnitFields) => T): T[] => units.map(value);
  const state = (fields: UnitFields): UnitState => (fields.in_service ? "available" : "out_of_service");
  return tx.$queryRaw<UnitRow[]>(Prisma.sql`
    WITH input AS (
      SELECT * FROM unnest(${units.map(() => uuid7())}::text[], ${column((fields) => fields.call_sign)}::text[],
        ${column((fields) => fields.name)}::text[], ${column((fields) => fields.type)}::text[],
        ${column((fields) => fields.station?.name ?? null)}::text[], ${column((fields) => fields.station?.latitude ?? null)}::float8[],
        ${column((fields) => fields.station?.longitude ?? null)}::float8[], ${column(state)}::text[]
      ) WITH ORDINALITY AS t(id, call_sign, name, type, station, station_latitude, station_longitude, state, seq)
    ), inserted AS (
      INSERT INTO units AS u (id, call_sign, name, type, station, station_latitude, station_longitude, state, exercise_id)
      SELECT id, call_sign, name, type, station, station_latitude, station_longitude, state, ${exerciseId} FROM input ORDER BY seq
      RETURNING ${Prisma.raw(UNIT_COLUMNS)}
    ), history AS (
      INSERT INTO unit_state_changes (unit_id, from_state, state, changed_by, changed_by_name)
      SELECT u.id, NULL, u.state, ${actorRef(actor)}, ${actor.name} FROM inserted u
    )
    SELECT u.* FROM inserted u JOIN input ON input.id = u.id ORDER BY input.seq`);
}

/** A roster correction (call sign, name, type, station); the state moves through moveUnit. */
export async function updateUnitFields(tx: Tx, id: string, fields: Partial<UnitFields>): Promise<void> {
  const sets: Prisma.Sql[] = [];
  if (fields.call_sign !== undefined) sets.push(Prisma.sql`call_sign = ${fields.call_sign}`);
  if (fields.name !== undefined) sets.push(Prisma.sql`name = ${fields.name}`);
  if (fields.type !== undefined) sets.push(Prisma.sql`type = ${fields.type}`);
  if (fields.station !== undefined) {
    sets.push(Prisma.sql`station = ${fields.station?.name ?? null}, station_latitude = ${fields.station?.latitude ?? null},
      station_longitude = ${fields.station?.longitude ?? null}`);
  }
  if (sets.length === 0) return;
  await tx.$executeRaw(Prisma.sql`UPDATE units SET ${Prisma.join(sets, ", ")} WHERE id = ${id}`);
}

export interface UnitMove {
  state: UnitState;
  /** The incident the unit serves after the move (null: none). */
  incidentId: string | null;
  position: { latitude: number; longitude: number } | null;
  /** An undo: the id of the move it reverts (lib/units/undo-state.ts). */
  undoes?: string;
  /** The incident's status move this move made (a send dispatching it, a last unit clearing it): its undo reverts it too. */
  incidentChangeId?: string;
}

/**
 * A unit's state change: the unit row, its history row (time, actor, position when given) and the
 * audit entry, all in the caller's transaction; the unit is locked (lockUnits). Answers the
 * history row's id: what an undo names.
 */
export async function moveUnit(tx: Tx, unit: UnitRow, move: UnitMove, actor: Actor): Promise<string> {
  const { latitude, longitude } = move.position ?? { latitude: null, longitude: null };
  await tx.$executeRaw`
    UPDATE units SET state = ${move.state}, state_changed_at = clock_timestamp(), incident_id = ${move.incidentId},
      latitude = COALESCE(${latitude}::float8, latitude), longitude = COALESCE(${longitude}::float8, longitude),
      position_at = CASE WHEN ${latitude}::float8 IS NULL THEN position_at ELSE clock_timestamp() END
    WHERE id = ${unit.id}`;
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO unit_state_changes (unit_id, from_state, state, incident_id, changed_by, changed_by_name, latitude, longitude, undoes, incident_change_id)
    VALUES (${unit.id}, ${unit.state}, ${move.state}, ${move.incidentId}, ${actorRef(actor)}, ${actor.name}, ${latitude}::float8, ${longitude}::float8,
      ${move.undoes ?? null}::bigint, ${move.incidentChangeId ?? null})
    RETURNING id::text`;
  await recordAudit(tx, actor, {
    action: move.undoes ? "unit.state_undone" : "unit.state_changed",
    target: { kind: "unit", id: unit.id },
    before: { state: unit.state, incident_id: unit.incident_id },
    after: { state: move.state, incident_id: move.incidentId, ...(move.position ?? {}), ...(move.undoes ? { undoes: move.undoes } : {}) },
  });
  return row.id;
}

/** A unit's state move as an undo reads it, with its age in seconds. */
export interface StateChangeRow {
  id: string;
  from_state: string | null;
  state: string;
  incident_id: string | null;
  changed_by: string;
  undoes: string | null;
  incident_change_id: string | null;
  age: number;
}

/** The unit's latest state moves, newest first (the index (unit_id, id DESC)). */
export function latestStateChanges(tx: Tx, unitId: string, limit: number): Promise<StateChangeRow[]> {
  return tx.$queryRaw<StateChangeRow[]>`
    SELECT c.id::text AS id, c.from_state, c.state, c.incident_id, c.changed_by, c.undoes::text AS undoes, c.incident_change_id,
      EXTRACT(EPOCH FROM clock_timestamp() - c.at)::float8 AS age
    FROM unit_state_changes c WHERE c.unit_id = ${unitId} ORDER BY c.id DESC LIMIT ${limit}`;
}

export interface OpenedAssignment {
  unit_id: string;
  incident_id: string;
  assigned_at: Date;
  confirmed_from_state: string | null;
}

/**
 * Opens the unit's assignment to the incident (the unit's previous one closed first: closeAssignment).
 * `unitInitiated`: the unit reported the incident itself, on scene from the start (on-scene.ts).
 */
export async function openAssignment(
  tx: Tx,
  unitId: string,
  incidentId: string,
  confirmedFrom: UnitState | null,
  actor: Actor,
  { unitInitiated = false }: { unitInitiated?: boolean } = {},
): Promise<OpenedAssignment> {
  const [row] = await tx.$queryRaw<OpenedAssignment[]>`
    INSERT INTO unit_assignments (unit_id, incident_id, assigned_by, assigned_by_name, confirmed_from_state, unit_initiated)
    VALUES (${unitId}, ${incidentId}, ${actorRef(actor)}, ${actor.name}, ${confirmedFrom}, ${unitInitiated})
    RETURNING unit_id, incident_id, assigned_at, confirmed_from_state`;
  return row;
}

/** Opens again the unit's latest assignment, closed by a move being undone; answers its incident. */
export async function reopenAssignment(tx: Tx, unitId: string): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ incident_id: string }[]>`
    UPDATE unit_assignments SET cleared_at = NULL
    WHERE id = (SELECT id FROM unit_assignments WHERE unit_id = ${unitId} ORDER BY assigned_at DESC, id DESC LIMIT 1) AND cleared_at IS NOT NULL
    RETURNING incident_id`;
  return row?.incident_id;
}

/** Closes the unit's open assignment; answers the incident it served, if any. */
export async function closeAssignment(tx: Tx, unitId: string): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ incident_id: string }[]>`
    UPDATE unit_assignments SET cleared_at = clock_timestamp() WHERE unit_id = ${unitId} AND cleared_at IS NULL RETURNING incident_id`;
  return row?.incident_id;
}

/** A reported position: kept unless the unit already has a later one (fixes may arrive out of order). */
export async function recordPosition(tx: Tx, unitId: string, position: { latitude: number; longitude: number; at: Date | null }): Promise<number> {
  return tx.$executeRaw`
    UPDATE units SET latitude = ${position.latitude}, longitude = ${position.longitude},
      position_at = COALESCE(${position.at}::timestamptz, clock_timestamp())
    WHERE id = ${unitId} AND (position_at IS NULL OR position_at <= COALESCE(${position.at}::timestamptz, clock_timestamp()))`;
}
