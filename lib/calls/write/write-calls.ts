import type { Actor } from "../../access/actor";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import type { Precision } from "../../geocoding/types";
import type { CallStatus } from "../../vocabulary";
import { mergeTextIndexesSoon } from "../text-index-upkeep";
import { withDatabase } from "../../db/with-database";
import { type CallCorrection, correctCalls, type CorrectedValue } from "./write-corrections";
import { moveCall, moveIncidentCalls, placeCalls } from "./incident";
import { type Placement, type ReceivedCall, upsertFailedCall, upsertReceivedCalls } from "./received";
import { insertSimulatedRows, type SimulatedRow } from "./simulated";
import { type LiveReport, type LiveWrite, upsertLiveCall } from "./live";
import { insertTakenCall, type TakenCall, type TakenWrite } from "./taken";
import { OPEN_STATUSES } from "../workflow";
import { closeExerciseCalls, setCallStatus, setIncidentCallsStatus } from "./write-status";
import { type FeedTransactionOptions, type FeedTx, inFeedTransaction, markOwnWrite } from "../../feed";
import type { HandedOverCall } from "../handed-over";

/**
 * The one door for writing calls (docs/architecture.md, "Writing calls"): every INSERT and UPDATE
 * of `calls`, `call_status_changes` and `call_corrections` is in this folder, which owns their
 * column lists, the history row of every status change and correction, the lock order (the change
 * feed's lock, then rows) and what follows a commit (this instance's listing reads the feed's
 * number anew: read-your-write). Other domains call the functions below;
 * tests/unit/one-door.test.ts fails if any other file writes these tables.
 */

export type { LocatedPoint, Placement, ReceivedCall } from "./received";
export { locatedPoint } from "./received";
export type { SimulatedRow } from "./simulated";
export type { TakenCall, TakenWrite } from "./taken";
export type { CallCorrection, CorrectedValue } from "./write-corrections";
export { EXERCISE_END } from "./write-status";

/** What a transaction of writeCalls may do to calls, the feed's lock taken before the first write. */
/** A call locked for a change: what its writers decide on. */
export interface LockedCall {
  id: string;
  status: CallStatus;
  simulation: boolean;
  incident_id: string;
  location_precision: Precision | null;
}

export interface CallWrites {
  /** The transaction itself: for reads and for the caller's own tables (incidents, audit, exercises), never for calls. */
  readonly tx: FeedTx;
  /** Takes the change feed's lock (once): before locking rows the transaction then writes calls under. */
  lockChangeFeed(): Promise<void>;
  /** The call, locked for the rest of the transaction; undefined when there is none. */
  lockCall(conversationId: string): Promise<LockedCall | undefined>;
  setCallStatus(call: { id: string; status: CallStatus }, status: CallStatus, actor: Actor): Promise<void>;
  /** Closes an ended exercise's open calls (failed, by its end); answers how many. */
  closeExerciseCalls(exerciseId: string): Promise<number>;
  /** Moves the incident's calls that are in one of `from` to `status`; answers how many moved. */
  setIncidentCallsStatus(incidentId: string, from: readonly CallStatus[], status: CallStatus, actor: Actor): Promise<number>;
  /** Corrects one call's type, severity or location (keeping the agent's values), with a call_corrections row per field changed. */
  correctCall(callId: string, correction: CallCorrection, actor: Actor): Promise<CorrectedValue[]>;
  /** The same correction of every call of an incident. */
  correctIncidentCalls(incidentId: string, correction: CallCorrection, actor: Actor): Promise<CorrectedValue[]>;
  moveIncidentCalls(from: string, to: string): Promise<number>;
  moveCall(callId: string, incidentId: string): Promise<void>;
  placeCalls(placed: readonly { id: string; incident_id: string }[]): Promise<void>;
  /** `waitForGrouper`: grouping is on (lib/incidents/grouping.ts groupingEnabled), the calls wait for the grouper. */
  insertSimulatedRows(tableName: string, rows: readonly SimulatedRow[], exerciseId: string | null, waitForGrouper: boolean): Promise<Map<string, string>>;
  /** One live report (./live.ts): an exercise's live call unfolding in the scheduler's transaction. */
  upsertLiveCall(report: LiveReport, placement: Placement | undefined): Promise<LiveWrite | undefined>;
  /** Post-call events (./received.ts): an exercise's live call completed by its analysis. */
  upsertReceivedCalls(received: readonly ReceivedCall[], placement: Placement | undefined): Promise<void>;
  /** A call a person took (./taken.ts), taken by `actor`: in its chosen incident, else placed by `placement`. */
  insertTakenCall(call: TakenCall, actor: Actor, placement: Placement | undefined): Promise<TakenWrite>;
}

/**
 * Runs `work` in one transaction whose calls writes go through `writes`, when its turn comes
 * (lib/feed/transaction.ts: a few such transactions per process at once); once it commits having written, this
 * instance's listing shows the writes on its next read.
 */
export async function writeCalls<T>(work: (writes: CallWrites) => Promise<T>, options: FeedTransactionOptions = {}): Promise<T> {
  let wrote = false;
  const result = await inFeedTransaction(async (tx, lock) => {
    const writing = async <R>(write: () => Promise<R>): Promise<R> => {
      await lock();
      wrote = true;
      return write();
    };
    return work({
      tx,
      lockChangeFeed: lock,
      lockCall: async (conversationId) => {
        await lock();
        const [call] = await tx.$queryRaw<LockedCall[]>`
          SELECT id, status, simulation, incident_id, location_precision FROM calls
          WHERE conversation_id = ${conversationId} FOR UPDATE`;
        return call;
      },
      setCallStatus: (call, status, actor) => writing(() => setCallStatus(tx, call, status, actor)),
      setIncidentCallsStatus: (id, from, status, actor) => writing(() => setIncidentCallsStatus(tx, id, from, status, actor)),
      closeExerciseCalls: (exerciseId) => writing(() => closeExerciseCalls(tx, exerciseId, OPEN_STATUSES)),
      correctCall: (callId, correction, actor) =>
        writing(() => correctCalls(tx, Prisma.sql`id = ${callId}`, correction, actor)),
      correctIncidentCalls: (incidentId, correction, actor) =>
        writing(() => correctCalls(tx, Prisma.sql`incident_id = ${incidentId}`, correction, actor)),
      moveIncidentCalls: (from, to) => writing(() => moveIncidentCalls(tx, from, to)),
      moveCall: (callId, incidentId) => writing(() => moveCall(tx, callId, incidentId)),
      placeCalls: (placed) => writing(() => placeCalls(tx, placed)),
      insertSimulatedRows: (tableName, rows, exerciseId, waitForGrouper) =>
        writing(() => insertSimulatedRows(tx, tableName, rows, exerciseId, waitForGrouper)),
      upsertLiveCall: (report, placement) => writing(() => upsertLiveCall(tx, report, placement)),
      upsertReceivedCalls: (received, placement) => writing(() => upsertReceivedCalls(tx, received, placement)),
      insertTakenCall: (call, actor, placement) => writing(() => insertTakenCall(tx, call, actor, placement)),
    });
  }, options);
  if (wrote) afterWrite();
  return result;
}

/** What follows a commit that wrote calls: this instance's listing reads anew; their text's index entries are merged soon. */
function afterWrite(): void {
  mergeTextIndexesSoon();
  markOwnWrite();
}

/**
 * Calls the voice platform handed over, in one statement (lib/calls/write/received.ts), each placed
 * in its incident by `placement` (undefined while grouping is off).
 */
export async function storeReceivedCalls(received: readonly ReceivedCall[], placement: Placement | undefined): Promise<void> {
  if (received.length === 0) return;
  await withDatabase((db) => upsertReceivedCalls(db, received, placement));
  afterWrite();
}

/** A call that never connected (lib/calls/write/received.ts). */
export async function storeFailedCall(call: HandedOverCall, payloadKey: string, verified: boolean): Promise<void> {
  await withDatabase((db) => upsertFailedCall(db, call, payloadKey, verified));
  afterWrite();
}

/** Simulated calls in one statement, on `db` (the simulator answers its own database failures). */
export async function storeSimulatedRows(
  db: Db,
  tableName: string,
  rows: readonly SimulatedRow[],
  waitForGrouper: boolean,
): Promise<Map<string, string>> {
  const inserted = await insertSimulatedRows(db, tableName, rows, null, waitForGrouper);
  if (inserted.size > 0) afterWrite();
  return inserted;
}
