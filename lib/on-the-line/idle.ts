import { getConfig } from "../config";
import { endIdleLiveCalls } from "../calls/write/live";
import { log } from "../log";
import { processPart } from "../process-parts";

/** How often the process looks for live calls whose post-call event never came. */
const SWEEP_MS = 30_000;

/**
 * Marks ended the live calls silent for LIVE_CALL_TIMEOUT_SECONDS with no post-call event
 * (lib/calls/write/live.ts endIdleLiveCalls): they leave "on the line" and stay listed. Every
 * instance sweeps; the statement is idempotent.
 */
export function startLiveCallSweeper(): void {
  processPart(
    "live call sweeper",
    () => {
      const timer = setInterval(() => {
        endIdleLiveCalls(getConfig().LIVE_CALL_TIMEOUT_SECONDS).then(
          (ended) => ended > 0 && log.info({ ended }, "live calls without a post-call event marked ended"),
          (error: unknown) => log.warn({ err: error }, "live call sweep failed"),
        );
      }, SWEEP_MS);
      timer.unref();
      return timer;
    },
    (timer) => clearInterval(timer),
  );
}
