import { log } from "./log";

/**
 * A process's background worker that drains a queue kept in the database, batch by batch (the
 * grouper's waiting calls, the recording archiver's due links): woken by whoever queued work, and
 * on a sweep timer for work another instance queued or that fell due. One run at a time takes
 * batches until one comes back short; a wake during a run runs it again, after `gatherMs` (work
 * arriving meanwhile shares the next batch). A failed batch ends the run, logged: the work stays
 * queued for the next wake or sweep. Whoever queues never waits for it.
 */
export abstract class DrainLoop {
  private running: Promise<void> | null = null;
  private requested = false;
  private delayed: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private stopped = false;

  /** `failure`: what the log says when a batch fails; `gatherMs`: how long a soon wake gathers work. */
  constructor(private readonly failure: string, private readonly gatherMs = 0) {}

  /** One batch; true when it was full (more may be waiting). */
  protected abstract drainBatch(): Promise<boolean>;

  get sweeping(): boolean {
    return this.sweep !== undefined;
  }

  /** Runs within gatherMs, in one batch with whatever else is queued meanwhile. */
  wakeSoon(): void {
    if (this.gatherMs === 0) return this.wake();
    if (this.stopped) return;
    this.requested = true;
    if (this.running || this.delayed) return;
    this.delayed = setTimeout(() => {
      this.delayed = undefined;
      this.wake();
    }, this.gatherMs);
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

  /** Drains what is queued now, then on a timer (again after a stop). */
  startSweeping(intervalMs: number): void {
    this.stopped = false;
    if (this.sweep) return;
    this.sweep = setInterval(() => this.wake(), intervalMs);
    this.sweep.unref();
    this.wake();
  }

  /** No run starts after this until the next startSweeping; resolves once the one going, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    clearTimeout(this.delayed);
    this.sweep = this.delayed = undefined;
    await this.running;
  }

  private async run(): Promise<void> {
    try {
      while (this.requested) {
        this.requested = false;
        while (await this.drainBatch()) {
          // A full batch: more may be waiting.
        }
      }
    } catch (error) {
      this.requested = false;
      log.warn({ err: error }, this.failure);
    }
  }
}
