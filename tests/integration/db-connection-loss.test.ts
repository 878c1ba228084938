import { describe, expect, inject, it } from "vitest";
import { getDb } from "@/lib/db/client";

// PGlite runs in the process: there is no server that could cut a connection.
describe.skipIf(inject("testDatabase").kind !== "postgresql")("database connection loss", () => {
  it("survives the server cutting idle connections and serves the next query", async () => {
    const db = await getDb();
    // Open a few pooled connections, then have the server terminate them while they sit idle.
    await Promise.all([1, 2, 3].map(() => db.$executeRaw`SELECT pg_sleep(0.05)`));
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      const [{ cut }] = await db.$queryRaw<{ cut: number }[]>`
        SELECT count(pg_terminate_backend(pid))::int AS cut FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'`;
      expect(cut).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [{ one }] = await db.$queryRaw<{ one: number }[]>`SELECT 1::int AS one`;
      expect(one).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });

  it("fails a transaction whose connection is cut between two statements, and serves the next query", async () => {
    const db = await getDb();
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      // As when PostgreSQL restarts while the grouper or a status change holds a transaction open.
      const outcome = db.$transaction(async (tx) => {
        const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid()::int AS pid`;
        await db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.$queryRaw`SELECT 1`;
      });
      await expect(outcome).rejects.toThrow();
      const [{ one }] = await db.$queryRaw<{ one: number }[]>`SELECT 1::int AS one`;
      expect(one).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });
});
