import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { getDb } from "@/lib/db/client";
import { setObjectStoreForTests } from "@/lib/storage";
import { LocalObjectStore } from "@/lib/storage/local";

const get = () => GET(new Request("http://localhost/api/health"), undefined);

describe("GET /api/health", () => {
  afterEach(() => setObjectStoreForTests(undefined));

  it("answers 200 when the database is migrated and storage is writable", async () => {
    const response = await get();
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.database.kind).toBe(inject("testDatabase").kind);
    expect(body.migrations).toEqual({ ok: true, pending: [] });
    expect(body.storage.ok).toBe(true);
  });

  it("answers 503 naming the storage when it cannot be written", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "mayday-ro-"));
    const blocker = path.join(directory, "not-a-dir");
    await writeFile(blocker, "a file where the store wants a directory");
    setObjectStoreForTests(new LocalObjectStore(blocker));
    const response = await get();
    const body = await response.json();
    expect(response.status).toBe(503);
    expect(body.status).toBe("unavailable");
    expect(body.storage.ok).toBe(false);
    expect(body.storage.error).toMatch(/ENOTDIR|EEXIST/);
  });

  it("answers 503 listing a migration the database has not had", async () => {
    const db = await getDb();
    const [latest] = await db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await db.$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = ${latest.migration_name}`;
    const body = await (await get()).json();
    expect(body.migrations.ok).toBe(false);
    expect(body.migrations.pending).toEqual([latest.migration_name]);
  });
});
