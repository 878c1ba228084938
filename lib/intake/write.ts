import { type LocatedPoint, locatedPoint, type ReceivedCall, storeReceivedCalls } from "../calls/write/write-calls";
import { driverErrorCause } from "../db/driver-error";
import { UNCERTAINTY_METRES } from "../geocoding/precision";
import { groupingEnabled, placementQuery } from "../incidents/grouping";
import { processPart } from "../process-parts";
import { arrivedSigned } from "../voice-platforms/payload-keys";
import type { LocatedCall } from "./locate";

/**
 * What the calls' door stores: the platform's point before the geocoded one. The platforms send
 * no accuracy with coordinates: they are taken as a point (address_point; docs/geocoding.md).
 */
function toReceivedCall({ call, payloadKey, geocode, geocodeFailure }: LocatedCall): ReceivedCall {
  const point: LocatedPoint | null = call.reported
    ? { ...call.reported, precision: "address_point", uncertaintyMeters: UNCERTAINTY_METRES.address_point, source: "platform", matched: null, civic: null }
    : geocode && locatedPoint(geocode);
  return { call, payloadKey, point, geocoderFailed: geocodeFailure !== undefined, verified: arrivedSigned(payloadKey) };
}

/**
 * The first `size` items of distinct conversations, in order, and the rest, in order. A statement
 * that stores received calls upserts a conversation's row once, so its later items wait for a later batch,
 * which keeps each conversation's deliveries in the order they came.
 */
export function firstOfEachConversation<T>(items: T[], size: number, conversationOf: (item: T) => string): { batch: T[]; rest: T[] } {
  const batch: T[] = [];
  const rest: T[] = [];
  const conversations = new Set<string>();
  for (const item of items) {
    const conversation = conversationOf(item);
    if (batch.length < size && !conversations.has(conversation)) {
      conversations.add(conversation);
      batch.push(item);
    } else {
      rest.push(item);
    }
  }
  return { batch, rest };
}

/** PostgreSQL's SQLSTATE of a failed statement, through Prisma's driver adapter or node-postgres. */
function sqlState(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Object; cause = (cause as { cause?: unknown }).cause) {
    const code = driverErrorCause(cause)?.originalCode ?? (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The grouping rule the door places received calls by, while grouping is on (docs/incidents.md). */
const placement = () => (groupingEnabled() ? placementQuery : undefined);

/**
 * Stores a batch (lib/calls/write/received.ts) and answers each call's outcome. When the database refuses the
 * batch's statement for what a row holds (SQLSTATE classes 22 and 23: a value out of range, a
 * constraint), each call is stored on its own, one after another, so that such a call fails only
 * itself. Any other failure (the database down, a timeout) fails the whole batch at once: trying
 * each call would only wait that many times longer before each webhook defers its call.
 */
export async function storeEach(located: LocatedCall[]): Promise<PromiseSettledResult<void>[]> {
  try {
    await storeReceivedCalls(located.map(toReceivedCall), placement());
    return located.map(() => ({ status: "fulfilled", value: undefined }));
  } catch (error) {
    const state = sqlState(error);
    if (located.length === 1 || !(state?.startsWith("22") || state?.startsWith("23"))) {
      return located.map(() => ({ status: "rejected", reason: error }));
    }
    const outcomes: PromiseSettledResult<void>[] = [];
    for (const call of located) {
      try {
        await storeReceivedCalls([toReceivedCall(call)], placement());
        outcomes.push({ status: "fulfilled", value: undefined });
      } catch (reason) {
        outcomes.push({ status: "rejected", reason });
      }
    }
    return outcomes;
  }
}

/**
 * The write stage's group commit (docs/webhook.md). Every write of calls takes
 * the change feed's lock to its commit, so statements run one at a time, and a statement's fixed
 * cost (its triggers, its turn at the lock, its commit) bounds how many calls a second can be
 * stored one per statement. Here a process writes its webhooks' calls one statement at a time: the
 * calls that arrive while one is written go together in the next, each webhook still answered only
 * once its call is committed. An idle server writes a lone call at once, as before; a surge shares
 * statements.
 */
interface Waiting {
  located: LocatedCall;
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/** Calls per statement: as many as the reconciler's batches, whose drain rate they set. */
const MAX_BATCH = 100;

class CallWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  /** One promise per call: the calls wait together, so a writer that is idle takes them in one statement. */
  store(calls: readonly LocatedCall[]): Promise<void>[] {
    const stored = calls.map(
      (located) => new Promise<void>((resolve, reject) => this.waiting.push({ located, resolve, reject })),
    );
    this.writeNext();
    return stored;
  }

  private writeNext(): void {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    const { batch, rest } = firstOfEachConversation(this.waiting, MAX_BATCH, ({ located }) => located.call.conversationId);
    this.waiting = rest;
    void storeEach(batch.map(({ located }) => located))
      .then((outcomes) =>
        outcomes.forEach((outcome, index) =>
          outcome.status === "fulfilled" ? batch[index].resolve() : batch[index].reject(outcome.reason),
        ),
      )
      .finally(() => {
        this.writing = false;
        this.writeNext();
      });
  }
}

// One writer per process, whichever bundle stores (Next's route and the server's direct path).

/**
 * Stores calls together with the calls arriving with them (a webhook's one, or a backlog batch);
 * each promise resolves once its call is committed.
 */
export function storeWithOthers(calls: readonly LocatedCall[]): Promise<void>[] {
  return processPart("call writer", () => new CallWriter()).store(calls);
}
