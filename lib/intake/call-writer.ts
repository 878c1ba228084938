import { processPart } from "../process-parts";
import { firstOfEachConversation, type PreparedCall, storeEach } from "./store-prepared-calls";

/**
 * Group commit for received calls (docs/performance.md, issue 17). Every write of calls takes
 * the change feed's lock to its commit, so statements run one at a time, and a statement's fixed
 * cost (its triggers, its turn at the lock, its commit) bounds how many calls a second can be
 * stored one per statement. Here a process writes its webhooks' calls one statement at a time: the
 * calls that arrive while one is written go together in the next, each webhook still answered only
 * once its call is committed. An idle server writes a lone call at once, as before; a surge shares
 * statements.
 */
interface Waiting {
  prepared: PreparedCall;
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/** Calls per statement: as many as the reconciler's batches, whose drain rate they set. */
const MAX_BATCH = 100;

class CallWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  /** One promise per call: the calls wait together, so a writer that is idle takes them in one statement. */
  store(calls: readonly PreparedCall[]): Promise<void>[] {
    const stored = calls.map(
      (prepared) => new Promise<void>((resolve, reject) => this.waiting.push({ prepared, resolve, reject })),
    );
    this.writeNext();
    return stored;
  }

  private writeNext(): void {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    const { batch, rest } = firstOfEachConversation(this.waiting, MAX_BATCH, ({ prepared }) => prepared.call.conversationId);
    this.waiting = rest;
    void storeEach(batch.map(({ prepared }) => prepared))
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
export function storeWithOthers(calls: readonly PreparedCall[]): Promise<void>[] {
  return processPart("call writer", () => new CallWriter()).store(calls);
}
