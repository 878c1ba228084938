import { getConfig } from "../config";
import { getDb } from "../db/client";
import { log } from "../log";
import { groupPendingCalls } from "./group-waiting";
import { GROUPING_BATCH } from "./grouping";

/**
 * Runs grouping in this process (docs/incidents.md, "Grouping"): woken by every writer that
 * stored calls waiting to be grouped, and every INCIDENT_GROUPING_SWEEP_MS for calls that another
 * instance stored and did not group (it stopped, or its database connection failed). A run groups
 * batch after batch until none is waiting. Writers never wait for it.
 */
class Grouper {
  private running: Promise<void> | null = null;
  private requested = false;
  private delayed: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private stopped = false;

  /** Groups within GATHER_MS: calls arriving meanwhile share the batch and its one turn at the feed lock. */
  wakeSoon(): void {
    if (this.stopped) return;
    this.requested = true;
    if (this.running || this.delayed) return;
    this.delayed = setTimeout(() => {
      this.delayed = undefined;
      this.wake();
    }, GATHER_MS);
    this.delayed.unref();
  }

  wake(): void {
    if (this.stopped) return;
    this.requested = true;
    if (this.running) return;
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.requested) this.wakeSoon();
    });
  }

  /** Resolves once no run is going and none was asked for (a gathering wake runs at once). */
  async settled(): Promise<void> {
    while (this.running || this.delayed) {
      if (!this.running) {
        clearTimeout(this.delayed);
        this.delayed = undefined;
        this.wake();
      }
      await this.running;
    }
  }

  /** No run starts after this; resolves once the one going, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    clearTimeout(this.delayed);
    this.sweep = this.delayed = undefined;
    await this.running;
  }

  startSweeping(intervalMs: number): void {
    if (this.sweep) return;
    this.sweep = setInterval(() => this.wake(), intervalMs);
    this.sweep.unref();
    this.wake();
  }

  private async run(): Promise<void> {
    try {
      const db = await getDb();
      while (this.requested) {
        this.requested = false;
        let grouped: number;
        do {
          grouped = await groupPendingCalls(db);
        } while (grouped === GROUPING_BATCH);
      }
    } catch (error) {
      // The calls stay waiting, each in its own incident: the next wake or sweep tries again.
      this.requested = false;
      log.warn({ err: error }, "incident grouping failed; retried on the next sweep");
    }
  }
}

// One grouper per process, whichever bundle asks (route handlers and instrumentation.ts).
const registry = globalThis as typeof globalThis & { [key: symbol]: Grouper | undefined };
const GROUPER_KEY = Symbol.for("mayday.incidents.grouper");

function grouper(): Grouper {
  return (registry[GROUPER_KEY] ??= new Grouper());
}

/**
 * How long a woken grouper gathers calls before its batch: a batch holds the change feed's lock,
 * which every writer waits for, so in a surge fewer, larger batches cost writers far less than one
 * per call. Short beside how long a dispatcher takes to read a new row.
 */
const GATHER_MS = 100;

/** After a write of calls marked grouping_pending: they are grouped within GATHER_MS. */
export function groupSoon(): void {
  if (getConfig().INCIDENT_GROUPING_ENABLED) grouper().wakeSoon();
}

/** Groups whatever is waiting now and resolves when done (tests and benches). */
export async function groupNow(): Promise<void> {
  grouper().wake();
  await grouper().settled();
}

/**
 * Before this process closes its database (tests' teardown): a woken run would open it again, and
 * a run inside a transaction would lose its connection.
 */
export async function stopGrouper(): Promise<void> {
  await grouper().stop();
}

/** At start-up (instrumentation.ts): groups what is waiting, then sweeps on a timer. */
export function startGrouper(): void {
  if (getConfig().INCIDENT_GROUPING_ENABLED) grouper().startSweeping(getConfig().INCIDENT_GROUPING_SWEEP_MS);
}
