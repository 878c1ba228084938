import { getDb } from "../db/client";
import { DrainLoop } from "../drain-loop";
import { processPart } from "../process-parts";
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

class Archiver extends DrainLoop {
  private retry = RECORDING_RETRY;

  constructor() {
    super("recording archiving failed; retried on the next sweep");
  }

  start(options: ArchiverOptions): void {
    if (this.sweeping) return;
    this.retry = options.retry ?? RECORDING_RETRY;
    this.startSweeping(options.sweepMs ?? SWEEP_MS);
  }

  protected async drainBatch(): Promise<boolean> {
    // The links stay queued when a batch fails: claimed again once their claim lapses.
    return (await archiveDueRecordings(await getDb(), this.retry)) === RECORDING_BATCH;
  }
}

// One archiver per process, whichever bundle asks (route handlers and instrumentation.ts).
function archiver(): Archiver {
  return processPart("recording archiver", () => new Archiver(), (running) => running.stop());
}

/** After links were queued: fetched at once by this process's archiver, if it runs one. */
export function archiveRecordingsSoon(): void {
  if (archiver().sweeping) archiver().wake();
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
