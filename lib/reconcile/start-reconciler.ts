import { getConfig } from "../config";
import { log } from "../log";
import { processPart } from "../process-parts";
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
  private running: Promise<void> | undefined;
  private backlog = false;
  private stopped = false;
  private stopListening: (() => void) | undefined;

  start(): void {
    this.stopListening = onPendingAdded(() => {
      if (this.backlog) return;
      this.backlog = true;
      this.schedule(RETRY_MS);
    });
    void this.pass();
  }

  /** No pass starts after this; resolves once the one going, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = (async () => {
      try {
        const result = await reconcilePending();
        this.backlog = result.remaining > 0;
      } catch (error) {
        // The database (or storage) is still down: the next pass tries again.
        log.debug({ err: error }, "reconciliation pass failed");
        this.backlog = true;
      }
    })();
    await this.running;
    this.running = undefined;
    this.schedule(this.backlog ? RETRY_MS : getConfig().RECONCILE_INTERVAL_MS);
  }
}

/** One scheduler per process, whichever bundle asks (instrumentation.ts at start-up). */
export function startReconciler(): void {
  processPart(
    "reconciler",
    () => {
      const scheduler = new ReconcileScheduler();
      scheduler.start();
      return scheduler;
    },
    (scheduler) => scheduler.stop(),
  );
}
