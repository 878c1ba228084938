import { getDb } from "../db/client";
import { log } from "../log";
import { archiveDueRecordings, RECORDING_BATCH, RECORDING_RETRY, type RecordingRetry } from "./recording-queue";

/**
 * The process's recording archiver (docs/webhook.md, "Recordings"), started at start-up
 * (instrumentation.ts, unless RECORDING_ARCHIVER=false): woken by intake once it has queued a link,
 * so the audio is fetched as its call arrives, in the background (the webhook never waits), and on
 * a timer for links falling due again and those another instance queued. A run claims batch after
 * batch until none is due. Intake never waits for it.
 */

/** The timer's period: short beside the first retry's wait (RECORDING_RETRY.firstMs). */
const SWEEP_MS = 30_000;

export interface ArchiverOptions {
  retry?: RecordingRetry;
  sweepMs?: number;
}

class Archiver {
  private running: Promise<void> | null = null;
  private requested = false;
  private sweep: NodeJS.Timeout | undefined;
  private retry = RECORDING_RETRY;

  get started(): boolean {
    return this.sweep !== undefined;
  }

  wake(): void {
    this.requested = true;
    if (this.running) return;
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.requested) this.wake();
    });
  }

  /** Resolves once no run is going and none was asked for. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  start(options: ArchiverOptions): void {
    if (this.started) return;
    this.retry = options.retry ?? RECORDING_RETRY;
    this.sweep = setInterval(() => this.wake(), options.sweepMs ?? SWEEP_MS);
    this.sweep.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweep);
    this.sweep = undefined;
    this.requested = false;
    await this.settled();
  }

  private async run(): Promise<void> {
    try {
      const db = await getDb();
      while (this.requested) {
        this.requested = false;
        let claimed: number;
        do {
          claimed = await archiveDueRecordings(db, this.retry);
        } while (claimed === RECORDING_BATCH);
      }
    } catch (error) {
      // The links stay queued: the next wake or sweep claims them again once their claim lapses.
      this.requested = false;
      log.warn({ err: error }, "recording archiving failed; retried on the next sweep");
    }
  }
}

// One archiver per process, whichever bundle asks (route handlers and instrumentation.ts).
const registry = globalThis as typeof globalThis & { [key: symbol]: Archiver | undefined };
const ARCHIVER_KEY = Symbol.for("mayday.intake.recording-archiver");

function archiver(): Archiver {
  return (registry[ARCHIVER_KEY] ??= new Archiver());
}

/** After links were queued: fetched at once by this process's archiver, if it runs one. */
export function archiveRecordingsSoon(): void {
  if (archiver().started) archiver().wake();
}

/** Fetches every due link now and resolves when done (tests). */
export async function archiveRecordingsNow(): Promise<void> {
  archiver().wake();
  await archiver().settled();
}

/** At start-up: fetches what is due, then sweeps on a timer. */
export function startRecordingArchiver(options: ArchiverOptions = {}): void {
  archiver().start(options);
}

/** No run starts after this; resolves once the one going, if any, has finished. */
export async function stopRecordingArchiver(): Promise<void> {
  await archiver().stop();
}
