import { getConfig } from "../config";
import { getDb } from "../db/client";
import { DrainLoop } from "../drain-loop";
import { processPart } from "../process-parts";
import { groupPendingCalls } from "./group-waiting";
import { GROUPING_BATCH } from "./grouping";

/**
 * Runs grouping in this process (docs/incidents.md, "Grouping"): woken by every writer that
 * stored calls waiting to be grouped, and every INCIDENT_GROUPING_SWEEP_MS for calls that another
 * instance stored and did not group (it stopped, or its database connection failed). A run groups
 * batch after batch until none is waiting (lib/drain-loop.ts). Writers never wait for it.
 */
class Grouper extends DrainLoop {
  constructor() {
    super("incident grouping failed; retried on the next sweep", GATHER_MS);
  }

  protected async drainBatch(): Promise<boolean> {
    // The calls stay waiting, each in its own incident, when a batch fails.
    return (await groupPendingCalls(await getDb())) === GROUPING_BATCH;
  }
}

// One grouper per process, whichever bundle asks (route handlers and instrumentation.ts).
function grouper(): Grouper {
  return processPart("incident grouper", () => new Grouper(), (running) => running.stop());
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

/** At start-up (instrumentation.ts): groups what is waiting, then sweeps on a timer. */
export function startGrouper(): void {
  if (getConfig().INCIDENT_GROUPING_ENABLED) grouper().startSweeping(getConfig().INCIDENT_GROUPING_SWEEP_MS);
}
