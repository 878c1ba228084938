import { storeSimulatedRows } from "../calls/write";
import { type Db, getDb } from "../db/client";
import { driverErrorCause } from "../db/driver-error";
import { uuid7 } from "../db/uuid7";
import { databaseError } from "../domain-error";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled } from "../incidents/grouping";
import { log } from "../log";
import type { SimulatedCall } from "../vocabulary";
import { formatCallId } from "./generate";

/**
 * Bulk storage of simulated calls through the calls' door (lib/calls/write/simulated.ts).
 *
 * Fast: one multi-row INSERT per batch, and a batch is a whole request (1000 calls at most): measured fastest.
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

async function insertBatch(db: Db, tableName: string, rows: readonly Row[]): Promise<Set<string>> {
  const inserted = await storeSimulatedRows(
    db,
    tableName,
    rows.map(({ call, event }) => ({ id: uuid7(), call, status: call.status, event })),
    groupingEnabled(),
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

  if (stored.size > 0) groupSoon();
  return {
    stored: [...stored.entries()].sort(([a], [b]) => a - b).map(([, call]) => call),
    errors: errors.sort((a, b) => a.index - b.index),
  };
}
