import { parse } from "csv-parse/sync";
import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { type CallWrites, writeCalls } from "../calls/write/write-calls";
import { withDatabase } from "../db/with-database";
import { DomainError, invalidParameter, notFound } from "../domain-error";
import { getUnit, unitsByCallSign } from "./read";
import { type Unit, UNIT_IMPORT_MAX_ROWS, type UnitFields, unitFields } from "./schema";
import { applyUnitState } from "./state";
import { toUnit } from "./to-unit";
import { insertUnits, lockUnits, updateUnitFields } from "./write";

/**
 * The roster, kept by an administrator (docs/units.md, "Roster"): one unit, a correction, or a CSV
 * file of units, each in one transaction behind the feed's lock (units are rows of the feed), so
 * the call-sign check and the write cannot be overtaken.
 */

type Tx = CallWrites["tx"];

async function takenCallSigns(tx: Tx, callSigns: readonly string[], except?: string): Promise<Set<string>> {
  const rows = await tx.$queryRaw<{ call_sign: string }[]>`
    SELECT lower(call_sign) AS call_sign FROM units WHERE lower(call_sign) = ANY(${callSigns.map((sign) => sign.toLowerCase())}::text[])
      AND id IS DISTINCT FROM ${except ?? null}`;
  return new Set(rows.map((row) => row.call_sign));
}

const callSignTaken = (callSign: string, where = "") =>
  new DomainError("CONFLICT", `${where}call sign ${callSign} is already on the roster`, { extra: { call_sign: callSign } });

/** POST /api/units. */
export async function createUnit(fields: UnitFields, actor: Actor): Promise<Unit> {
  const row = await writeCalls(async (writes) => {
    await writes.lockChangeFeed();
    if ((await takenCallSigns(writes.tx, [fields.call_sign])).size > 0) throw callSignTaken(fields.call_sign);
    const [inserted] = await insertUnits(writes.tx, [fields], actor);
    await recordAudit(writes.tx, actor, { action: "unit.created", target: { kind: "unit", id: inserted.id }, after: fields });
    return inserted;
  });
  return toUnit(row);
}

/**
 * An exercise's simulated units, in the transaction that makes the exercise (lib/exercises/create.ts,
 * docs/exercises.md "Simulated units"); the exercise's audit entry names them.
 */
export async function insertExerciseUnits(tx: Tx, exerciseId: string, units: readonly UnitFields[], actor: Actor): Promise<void> {
  if (units.length === 0) return;
  const taken = await takenCallSigns(tx, units.map((unit) => unit.call_sign));
  const clash = units.find((unit) => taken.has(unit.call_sign.toLowerCase()));
  if (clash) throw callSignTaken(clash.call_sign, "an exercise unit's ");
  await insertUnits(tx, units, actor, exerciseId);
}

/** PATCH /api/units/{id}: roster fields, and in_service (out of service, or back to available: either clears the unit). */
export async function updateUnit(id: string, fields: Partial<UnitFields>, actor: Actor): Promise<Unit> {
  await writeCalls(async (writes) => {
    await writes.lockChangeFeed();
    const [unit] = await lockUnits(writes.tx, [id]);
    if (!unit) throw notFound(`No unit with id ${id}`);
    if (fields.call_sign !== undefined && (await takenCallSigns(writes.tx, [fields.call_sign], id)).size > 0) throw callSignTaken(fields.call_sign);
    const { in_service: inService, ...roster } = fields;
    if (Object.keys(roster).length > 0) {
      await updateUnitFields(writes.tx, id, roster);
      await recordAudit(writes.tx, actor, { action: "unit.updated", target: { kind: "unit", id }, before: toUnit(unit), after: roster });
    }
    if (inService !== undefined && inService !== (unit.state !== "out_of_service")) {
      await applyUnitState(writes, unit, { state: inService ? "available" : "out_of_service", position: null }, actor);
    }
  });
  return getUnit(id);
}

/**
 * An import's transaction may take this long (the default is 5 s): the units go in by one
 * statement, about a second for UNIT_IMPORT_MAX_ROWS (docs/units.md), so this is room for a
 * loaded machine, not for row-by-row work; the feed's lock is held meanwhile.
 */
const IMPORT_TIMEOUT_MS = 15_000;

/**
 * POST /api/units/import: every line of the CSV becomes a unit, or none does: the first line in
 * error (its number as an editor shows it, the header being line 1) is named with what is wrong.
 */
export async function importUnits(csv: string, actor: Actor): Promise<{ created: number; units: Unit[] }> {
  const lines = readCsv(csv);
  const seen = new Map<string, number>();
  lines.forEach(({ line, fields }) => {
    const key = fields.call_sign.toLowerCase();
    if (seen.has(key)) throw lineError(line, `call sign ${fields.call_sign} is also on line ${seen.get(key)}`, "CONFLICT");
    seen.set(key, line);
  });
  const ids = await writeCalls(async (writes) => {
    await writes.lockChangeFeed();
    const taken = await takenCallSigns(writes.tx, lines.map(({ fields }) => fields.call_sign));
    const clash = lines.find(({ fields }) => taken.has(fields.call_sign.toLowerCase()));
    if (clash) throw lineError(clash.line, `call sign ${clash.fields.call_sign} is already on the roster`, "CONFLICT");
    const created = (await insertUnits(writes.tx, lines.map(({ fields }) => fields), actor)).map((row) => row.id);
    await recordAudit(writes.tx, actor, { action: "unit.imported", target: { kind: "units", id: "roster" }, after: { created: created.length, call_signs: lines.map(({ fields }) => fields.call_sign) } });
    return created;
  }, { timeout: IMPORT_TIMEOUT_MS });
  const units = await withDatabase((db) => unitsByCallSign(db, ids));
  return { created: ids.length, units: units.map(toUnit) };
}

function lineError(line: number, message: string, code: "INVALID_PARAMETER" | "CONFLICT" = "INVALID_PARAMETER"): DomainError {
  return new DomainError(code, `Line ${line}: ${message}; nothing was imported`, { label: code === "CONFLICT" ? "Conflict" : "Invalid CSV", extra: { line } });
}

const COLUMNS = ["call_sign", "name", "type", "station", "station_latitude", "station_longitude", "in_service"];

function readCsv(csv: string): { line: number; fields: UnitFields }[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(csv, { columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()), skip_empty_lines: true, trim: true, info: true, bom: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw line ? lineError(line, (error as Error).message) : invalidParameter("Invalid CSV", (error as Error).message);
  }
  if (records.length === 0) throw invalidParameter("Invalid CSV", "The CSV has no units: a header line, then one line per unit");
  const unknown = Object.keys(records[0].record).filter((name) => !COLUMNS.includes(name));
  if (unknown.length > 0) throw lineError(1, `unknown column ${unknown.join(", ")} (columns: ${COLUMNS.join(", ")})`);
  if (records.length > UNIT_IMPORT_MAX_ROWS) throw invalidParameter("Invalid CSV", `At most ${UNIT_IMPORT_MAX_ROWS} units per file`);
  return records.map(({ record, info }) => {
    try {
      return { line: info.lines, fields: unitFields(record) as UnitFields };
    } catch (error) {
      throw error instanceof DomainError ? lineError(info.lines, error.message) : error;
    }
  });
}
