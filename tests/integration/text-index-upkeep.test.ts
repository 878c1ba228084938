import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { postSimulate } from "../support/simulate-request";

/**
 * The trigram indexes' pending entries are merged in the background after a write
 * (lib/calls/text-index-upkeep.ts), not by a later writer while it holds the change feed's lock.
 */
describe.skipIf(!getConfig().DATABASE_URL)("text index upkeep", () => {
  const pendingPages = async (index: string) => {
    const db = await getDb();
    // pgstattuple reads the index's metapage: how many pages of entries wait to be merged.
    await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pgstattuple");
    const [{ pages }] = await db.$queryRawUnsafe<{ pages: number }[]>(`SELECT pending_pages AS pages FROM pgstatginindex('${index}')`);
    return pages;
  };

  it("merges the entries of simulated calls' summaries and locations within seconds of the write, with no writer's help", async () => {
    const { status } = await postSimulate({ scenario: "hurricane_florida", num_calls: 500, table_name: "upkeep-calls" });
    expect(status).toBe(200);
    // Right after the write the entries wait in the list (its limit is 16 MB, far above 500 summaries).
    expect(await pendingPages("calls_summary_trgm_idx")).toBeGreaterThan(0);
    await expect.poll(() => pendingPages("calls_summary_trgm_idx"), { timeout: 10_000, interval: 250 }).toBe(0);
    expect(await pendingPages("calls_location_trgm_idx")).toBe(0);
  });
});
