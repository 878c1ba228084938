import { describe, expect, it, vi } from "vitest";

describe("the process's database handle", () => {
  it("is shared by every copy of the database module, as Next.js bundles each route, page and instrumentation.ts apart", async () => {
    const first = await import("@/lib/db/client");
    const db = await first.getDb();
    // A fresh module registry loads a second copy of the module, as a second bundle would.
    vi.resetModules();
    const second = await import("@/lib/db/client");
    expect(second).not.toBe(first);
    // A second open of the embedded database would fail on its directory lock; of PostgreSQL, a second pool.
    expect(await second.getDb()).toBe(db);
    const [{ one }] = await (await second.getDb()).$queryRaw<{ one: number }[]>`SELECT 1::int AS one`;
    expect(one).toBe(1);
  });
});
