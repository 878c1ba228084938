import { bumpCallsVersion } from "../calls/cache";
import { type Db, getDb } from "../db/client";
import { driverErrorCause } from "../db/driver-error";
import { uuid7 } from "../db/uuid7";
import { databaseError } from "../domain-error";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled } from "../incidents/grouping";
import { log } from "../log";
import { formatCallId, type SimulatedCall } from "./generate";

/**
 * Bulk storage of simulated calls in the `calls` table (with the creation in
 * `call_status_changes`), mapped as docs/interface.md "Stored records, as listed" says.
 *
 * Fast: one multi-row INSERT per batch (17 array parameters through `unnest`, not 26
 * placeholders per row), and a batch is a whole request (1000 calls at most): measured fastest.
 * Per call: a failing batch is split in halves until the failing calls stand alone, so one bad
 * call costs about 3 x log2(batch) extra statements (each half, and a liveness check per failure),
 * never the other calls' records. Never overwriting: `ON CONFLICT DO NOTHING` on the unique
 * call_id / conversation_id, and a call whose id is already taken gets a new number and is tried
 * again.
 */
export const BATCH_SIZE = 1000;
/** Attempts at a free call_id before the call is reported failed (a clash is already rare). */
const ID_ATTEMPTS = 5;

export interface StoreOutcome {
  /** The calls stored, in generation order, with the call_id they were stored under. */
  stored: SimulatedCall[];
  /** Calls that could not be stored: `index` counts from 0 in the generated list. */
  errors: { index: number; reason: string }[];
}

interface Row {
  index: number;
  call: SimulatedCall;
  /** The event the call reports (ground truth for grouping), stored as simulated_event. */
  event: string | null;
}

class StoreUnavailable extends Error {}

/** Prisma's client or an interactive transaction's: what the insert runs on. */
export type SqlRunner = Pick<Db, "$queryRaw">;

export interface SimulatedRow {
  /** The new row's id (uuid7). */
  id: string;
  call: SimulatedCall;
  /** The call's first status: "active", or "failed" for a call abandoned before an answer. */
  status: "active" | "failed";
  /** The event the call reports (ground truth for grouping), stored as simulated_event. */
  event?: string | null;
}

/**
 * One multi-row INSERT of simulated calls and their creation in the status history; calls whose
 * call_id or conversation_id is taken are skipped. Answers the stored calls' ids by call_id.
 * Also used by lib/exercises to release an exercise's calls (with its id) inside its claim.
 * Each call is stored in an incident of its own, waiting for the grouper (lib/incidents/grouper.ts)
 * unless grouping is switched off or the call failed (a caller who hung up before an answer
 * reports nothing to group); the caller wakes the grouper once the rows are committed.
 */
export async function insertSimulatedRows(
  db: SqlRunner,
  tableName: string,
  rows: readonly SimulatedRow[],
  exerciseId: string | null = null,
): Promise<Map<string, string>> {
  const column = <T>(value: (row: SimulatedRow) => T) => rows.map(value);
  const inserted = await db.$queryRaw<{ id: string; call_id: string }[]>`
    WITH inserted AS (
      INSERT INTO calls (
        id, conversation_id, call_id, occurred_at, created_at, updated_at, agent_id, summary,
        call_successful, duration_secs, transcript_length, emergency_type, location, latitude,
        longitude, geocode_source, severity, status, simulation, scenario, scenario_name,
        table_name, area, caller_phone, description, simulated_record, exercise_id, simulated_event, grouping_pending
      )
      SELECT r.id, r.call_id, r.call_id, r.created_at, r.created_at, r.created_at, 'simulator', r.summary,
        true, r.duration_secs, 0, r.emergency_type, r.address, r.latitude,
        r.longitude, 'simulated', r.severity, r.status, true, r.scenario, r.scenario_name,
        ${tableName}, r.area, r.caller_phone, r.description, r.record::jsonb, ${exerciseId},
        r.event, ${groupingEnabled()} AND r.status <> 'failed'
      FROM unnest(
        ${column(({ id }) => id)}::text[],
        ${column(({ call }) => call.call_id)}::text[],
        ${column(({ call }) => call.created_at)}::timestamptz[],
        ${column(({ call }) => call.summary)}::text[],
        ${column(({ call }) => call.duration_secs)}::int[],
        ${column(({ call }) => call.emergency_type)}::text[],
        ${column(({ call }) => call.location.address)}::text[],
        ${column(({ call }) => Number(call.location.latitude))}::float8[],
        ${column(({ call }) => Number(call.location.longitude))}::float8[],
        ${column(({ call }) => call.severity)}::text[],
        ${column(({ status }) => status)}::text[],
        ${column(({ call }) => call.scenario)}::text[],
        ${column(({ call }) => call.scenario_name)}::text[],
        ${column(({ call }) => call.location.area)}::text[],
        ${column(({ call }) => call.caller_phone)}::text[],
        ${column(({ call }) => call.description)}::text[],
        ${column(({ call }) => JSON.stringify(call))}::text[],
        ${column(({ event }) => event ?? null)}::text[]
      ) AS r(id, call_id, created_at, summary, duration_secs, emergency_type, address, latitude,
        longitude, severity, status, scenario, scenario_name, area, caller_phone, description, record,
        event)
      ON CONFLICT DO NOTHING
      RETURNING id, call_id, status, created_at
    ), history AS (
      INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
      SELECT id, NULL, status, created_at, 'simulator' FROM inserted
    )
    SELECT id, call_id FROM inserted`;
  return new Map(inserted.map((row) => [row.call_id, row.id]));
}

async function insertBatch(db: Db, tableName: string, rows: readonly Row[]): Promise<Set<string>> {
  const inserted = await insertSimulatedRows(
    db,
    tableName,
    rows.map(({ call, event }) => ({ id: uuid7(), call, status: call.status, event })),
  );
  return new Set(inserted.keys());
}

async function reachable(db: Db): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}

/** The database's own words for a rejected row (constraint, trigger...), without a stack. */
function reasonOf(error: unknown): string {
  const cause = driverErrorCause(error);
  const databaseMessage = [cause?.originalMessage, cause?.message].find((text) => typeof text === "string");
  const message = databaseMessage ?? (error instanceof Error ? error.message : String(error));
  return message.split("\n").map((line) => line.trim()).filter(Boolean).pop() ?? "unknown error";
}

export async function storeSimulatedCalls(
  calls: readonly SimulatedCall[],
  tableName: string,
  /** New integer parts for call ids that are already taken. */
  callNumber: () => number,
  /** Per call, the event it reports (generateCallsWithEvents); none for calls of unknown events. */
  events: readonly string[] = [],
): Promise<StoreOutcome> {
  let db: Db;
  try {
    db = await getDb();
  } catch (error) {
    throw databaseError(error);
  }
  const stored = new Map<number, SimulatedCall>();
  const errors: StoreOutcome["errors"] = [];

  let clashed: Row[] = [];
  // Writes `rows`; a failing set is halved until each failing call stands alone.
  const write = async (rows: readonly Row[]): Promise<void> => {
    let inserted: Set<string>;
    try {
      inserted = await insertBatch(db, tableName, rows);
    } catch (error) {
      if (!(await reachable(db))) throw new StoreUnavailable(reasonOf(error), { cause: error });
      if (rows.length === 1) {
        errors.push({ index: rows[0].index, reason: reasonOf(error) });
        return;
      }
      const middle = Math.ceil(rows.length / 2);
      await write(rows.slice(0, middle));
      await write(rows.slice(middle));
      return;
    }
    for (const row of rows) {
      if (inserted.has(row.call.call_id)) stored.set(row.index, row.call);
      else clashed.push(row);
    }
  };

  let pending: Row[] = calls.map((call, index) => ({ index, call, event: events[index] ?? null }));
  try {
    for (let attempt = 1; pending.length > 0 && attempt <= ID_ATTEMPTS; attempt++) {
      for (let start = 0; start < pending.length; start += BATCH_SIZE) {
        await write(pending.slice(start, start + BATCH_SIZE));
      }
      pending = clashed.map(({ index, call, event }) => ({
        index,
        event,
        call: { ...call, call_id: formatCallId(call.scenario, call.timestamp, callNumber()) },
      }));
      clashed = [];
    }
    for (const row of pending) errors.push({ index: row.index, reason: "no free call_id found" });
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    // Down before anything was stored: the request failed as a whole.
    if (stored.size === 0) throw databaseError(error);
    log.error({ err: error.cause }, "call store became unavailable during a simulation");
    const failed = new Set(errors.map((entry) => entry.index));
    calls.forEach((_, index) => {
      if (!stored.has(index) && !failed.has(index)) errors.push({ index, reason: "call store unavailable" });
    });
  }

  // The listing must show these calls on the very next read.
  if (stored.size > 0) {
    await bumpCallsVersion();
    groupSoon();
  }
  return {
    stored: [...stored.entries()].sort(([a], [b]) => a - b).map(([, call]) => call),
    errors: errors.sort((a, b) => a.index - b.index),
  };
}
