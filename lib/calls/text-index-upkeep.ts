import { getDb } from "../db/client";
import { log } from "../log";
import { processPart } from "../process-parts";

/**
 * The trigram indexes of the calls' text (location, summary, transcript: GET /api/calls?q= and
 * location=) take new entries into a pending list, which the write that finds the list over its
 * limit merges into the index itself, while it holds the change feed's lock: every writer behind
 * it waited for the merge (webhook p99 82-115 ms under load, 39-63 ms with this upkeep,
 * docs/performance.md, issue 25).
 * Here, a second after this process wrote calls, the lists are merged outside any writer's
 * transaction (gin_clean_pending_list); one instance at a time (a try-lock: another's merge takes
 * the same entries). A search, which reads a pending list whole, finds it short too.
 */
const TEXT_INDEXES = ["calls_location_trgm_idx", "calls_summary_trgm_idx", "call_transcripts_text_trgm_idx"];
const UPKEEP_DELAY_MS = 1_000;
/** Advisory lock of the merge (the change feed's is 7243001001). */
const TEXT_INDEX_UPKEEP_LOCK = 7243001003;

let warned = false;

async function mergePendingEntries(): Promise<void> {
  try {
    const db = await getDb();
    const merges = TEXT_INDEXES.map((name) => `gin_clean_pending_list('${name}'::regclass)`).join(" + ");
    // CASE: the lists are merged only by the instance that took the lock.
    await db.$queryRawUnsafe(`SELECT CASE WHEN pg_try_advisory_xact_lock(${TEXT_INDEX_UPKEEP_LOCK}) THEN ${merges} END AS pages`);
  } catch (error) {
    // Writers then merge the lists themselves, as PostgreSQL does by default.
    if (!warned) log.warn({ err: error }, "text index upkeep failed; writes merge the pending entries themselves");
    warned = true;
  }
}

/** The merge due (its timer) or going (its promise); stopped with the process's parts. */
class Upkeep {
  private scheduled: NodeJS.Timeout | undefined;
  private merging: Promise<void> | undefined;

  soon(): void {
    if (this.scheduled) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      this.merging = mergePendingEntries().finally(() => (this.merging = undefined));
    }, UPKEEP_DELAY_MS);
    this.scheduled.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    await this.merging;
  }
}

/** After a write of calls: their text index entries are merged within UPKEEP_DELAY_MS. */
export function mergeTextIndexesSoon(): void {
  processPart("text index upkeep", () => new Upkeep(), (upkeep) => upkeep.stop()).soon();
}
