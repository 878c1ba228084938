import { getConfig } from "../config";
import { log } from "../log";
import { onPendingAdded } from "../intake/pending";
import { reconcilePending } from "./reconciler";

export { countPending } from "../intake/pending";
export { reconcilePending } from "./reconciler";

/** While payloads are known to be pending, the database is tried this often: "on reconnection". */
const RETRY_MS = 1_000;

/**
 * Runs reconciliation passes in this process: one at start-up, one every RECONCILE_INTERVAL_MS
 * (payloads another instance deferred), and every second while this process knows of pending
 * payloads, so a backlog starts draining within a second of the database answering again.
 */
class ReconcileScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private backlog = false;

  start(): void {
    onPendingAdded(() => {
      if (this.backlog) return;
      this.backlog = true;
      this.schedule(RETRY_MS);
    });
    void this.pass();
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const result = await reconcilePending();
      this.backlog = result.remaining > 0;
    } catch (error) {
      // The database (or storage) is still down: the next pass tries again.
      log.debug({ err: error }, "reconciliation pass failed");
      this.backlog = true;
    } finally {
      this.running = false;
      this.schedule(this.backlog ? RETRY_MS : getConfig().RECONCILE_INTERVAL_MS);
    }
  }
}

// One scheduler per process, whichever bundle asks (instrumentation.ts at start-up).
const registry = globalThis as typeof globalThis & { [key: symbol]: ReconcileScheduler | undefined };
const SCHEDULER_KEY = Symbol.for("mayday.reconcile.scheduler");

export function startReconciler(): void {
  if (registry[SCHEDULER_KEY]) return;
  registry[SCHEDULER_KEY] = new ReconcileScheduler();
  registry[SCHEDULER_KEY].start();
}
