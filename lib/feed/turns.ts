import { processPart } from "../process-parts";

/**
 * Transactions that write the feed's rows (calls, notes, acknowledgements, units: each a feed
 * transaction, ./transaction.ts) take turns at the feed's lock anyway (./lock.ts): a process
 * holds at most WRITE_TURNS of them open at once, and the others wait here in arrival order. A
 * burst of dispatcher actions (a thousand corrections at once) then waits in memory instead of
 * holding every pooled connection idle behind the lock, where the pool's and the transaction's
 * time limits would fail it, and reads keep connections to answer with.
 */
const WRITE_TURNS = 4;

interface Turns {
  active: number;
  waiting: (() => void)[];
}

/** Runs `work` once fewer than WRITE_TURNS others of this process are running. */
export async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  // One per process, shared by all Next.js route bundles (like the listing cache).
  const turns = processPart<Turns>("call write turns", () => ({ active: 0, waiting: [] }));
  if (turns.active < WRITE_TURNS) turns.active += 1;
  else await new Promise<void>((resolve) => turns.waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The turn passes straight to the next in line, or is given back.
    const next = turns.waiting.shift();
    if (next) next();
    else turns.active -= 1;
  }
}
