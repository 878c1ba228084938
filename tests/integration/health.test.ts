import { apiRequest } from "@/tests/support/auth";
import { readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { signedIn } from "@/tests/support/people";
import { getConfig } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db/client";
import { resetHealthForTests } from "@/lib/health/check-readiness";
import { getObjectStore, type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { setEnv as setConfigEnv } from "@/tests/support/env";
import { scratchDirectory } from "../support/scratch-directory";

const KEY = "health-k3y-0123456789";
const get = (headers: Record<string, string> = {}, query = "") =>
  GET(apiRequest(`http://localhost/api/health${query}`, { headers }), undefined);
const withKey = { authorization: `Bearer ${KEY}` };

/** The store the app would use, with every call counted. */
function countingStore(inner: ObjectStore = getObjectStore()) {
  const calls = { put: 0, get: 0, checkAvailable: 0 };
  const store: ObjectStore = {
    kind: inner.kind,
    put: (...args) => (calls.put++, inner.put(...args)),
    get: (key) => (calls.get++, inner.get(key)),
    readRange: (key, range) => inner.readRange(key, range),
    checkAvailable: () => (calls.checkAvailable++, inner.checkAvailable()),
    list: (folder) => inner.list(folder),
    delete: (key) => inner.delete(key),
  };
  setObjectStoreForTests(store);
  return calls;
}

async function filesUnder(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Sets (or, with undefined, removes) environment variables for one test; restored afterwards. */
const savedEnv = { ...process.env };
function setEnv(values: Record<string, string | undefined>): void {
  setConfigEnv(values);
  resetHealthForTests();
}

beforeEach(() => setEnv({ HEALTH_CHECK_INTERVAL_MS: "0" }));

afterEach(async () => {
  vi.restoreAllMocks();
  setObjectStoreForTests(undefined);
  const changed = ["API_KEY", "DATABASE_URL", "DATA_DIR", "HEALTH_CHECK_INTERVAL_MS"];
  if (process.env.DATABASE_URL !== savedEnv.DATABASE_URL || process.env.DATA_DIR !== savedEnv.DATA_DIR) await closeDb();
  setEnv(Object.fromEntries(changed.map((name) => [name, savedEnv[name]])));
});

describe("GET /api/health", () => {
  it("answers 200 with every check's outcome when the database is migrated and storage is reachable", async () => {
    const response = await get();
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({
      status: "ok",
      checkedAt: expect.any(String),
      checks: {
        database: { ok: true, kind: inject("testDatabase").kind },
        migrations: { ok: true, pending: [] },
        storage: { ok: true, kind: "local" },
        backlog: { ok: true, pending: 0 },
        redis: { ok: true, breakers: [] },
      },
    });
  });

  it("names no host, port, database, user or path, also when checks fail", async () => {
    const config = getConfig();
    const secrets = [config.DATA_DIR, path.resolve(config.DATA_DIR)];
    if (config.DATABASE_URL) {
      const url = new URL(config.DATABASE_URL);
      secrets.push(config.DATABASE_URL, url.hostname, url.port, url.pathname.slice(1));
    }
    const healthy = JSON.stringify(await (await get()).json());

    const directory = await scratchDirectory("health");
    const blocker = path.join(directory, "not-a-dir");
    await writeFile(blocker, "a file where a directory should be");
    setObjectStoreForTests(new LocalObjectStore(path.join(blocker, "blobs")));
    await closeDb();
    setEnv({ DATABASE_URL: undefined, DATA_DIR: blocker });
    const failing = await get();
    const failed = await failing.json();
    expect(failing.status).toBe(503);
    expect(failed.checks.database).toEqual({ ok: false, error: "ENOTDIR" });
    expect(failed.checks.storage).toEqual({ ok: false, error: "ENOTDIR" });

    for (const body of [healthy, JSON.stringify(failed)]) {
      for (const secret of [...secrets, directory, blocker, tmpdir()]) expect(body).not.toContain(secret);
      expect(body).not.toMatch(/postgres(ql)?:\/\/|127\.0\.0\.1|localhost|\/tmp\//);
    }
  });

  it.runIf(inject("testDatabase").kind === "postgresql")(
    "reports an unreachable PostgreSQL database by code only",
    async () => {
      const missing = new URL(getConfig().DATABASE_URL!);
      missing.pathname = "/mayday_health_no_such_database";
      await closeDb();
      setEnv({ DATABASE_URL: missing.toString() });
      const response = await get();
      const body = await response.json();
      expect(response.status).toBe(503);
      expect(body.checks.database).toEqual({ ok: false, error: "DatabaseDoesNotExist" });
      expect(JSON.stringify(body)).not.toMatch(/mayday_health_no_such_database|127\.0\.0\.1|postgres:|5432/);
    },
  );

  it("shows each check's outcome only to a caller with credentials (a key or a person's session)", async () => {
    setEnv({ API_KEY: KEY });
    const anonymous = await GET(new Request("http://localhost/api/health"), undefined);
    expect(anonymous.status).toBe(200);
    expect(Object.keys(await anonymous.json()).sort()).toEqual(["checkedAt", "status"]);
    const wrong = await get({ authorization: "Bearer wrong" });
    expect(wrong.status).toBe(200);
    expect((await wrong.json()).checks).toBeUndefined();
    expect((await (await get(withKey)).json()).checks.database.ok).toBe(true);
    const cookie = { cookie: (await signedIn("viewer")).cookie };
    expect((await (await get(cookie)).json()).checks.storage.ok).toBe(true);
  });

  it("answers 503 naming the storage when it is not usable", async () => {
    const directory = await scratchDirectory("ro");
    const blocker = path.join(directory, "not-a-dir");
    await writeFile(blocker, "a file where the store wants a directory");
    setObjectStoreForTests(new LocalObjectStore(blocker));
    const response = await get();
    const body = await response.json();
    expect(response.status).toBe(503);
    expect(body.status).toBe("unavailable");
    expect(body.checks.storage).toEqual({ ok: false, error: expect.stringMatching(/^(ENOTDIR|EEXIST)$/) });
    expect(body.checks.database.ok).toBe(true);
  });

  it("answers 503 listing a migration the database has not had", async () => {
    const db = await getDb();
    const [latest] = await db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${latest.migration_name}`;
    try {
      const response = await get();
      const body = await response.json();
      expect(response.status).toBe(503);
      expect(body.checks.migrations).toEqual({ ok: false, pending: [latest.migration_name] });
    } finally {
      await db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${latest.migration_name}`;
    }
  });

  it("answers probe=live with 200 without consulting any check, even when one fails", async () => {
    const directory = await scratchDirectory("live");
    await writeFile(path.join(directory, "file"), "not a directory");
    const calls = countingStore(new LocalObjectStore(path.join(directory, "file")));
    const live = await get(withKey, "?probe=live");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    expect(calls.checkAvailable).toBe(0);
    expect((await get(withKey, "?probe=ready")).status).toBe(503);
    expect(calls.checkAvailable).toBe(1);
  });

  it("refuses an unknown probe with 400 INVALID_PARAMETER", async () => {
    const response = await get({}, "?probe=deep");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: "probe must be ready or live" });
  });

  it("writes no object for 1,000 requests, even when every request runs the checks", async () => {
    const blobs = path.join(getConfig().DATA_DIR, "blobs");
    const before = await filesUnder(getConfig().DATA_DIR);
    const calls = countingStore();
    for (let batch = 0; batch < 20; batch++) {
      const responses = await Promise.all(Array.from({ length: 50 }, () => get()));
      expect(responses.every((response) => response.status === 200)).toBe(true);
    }
    expect(calls.put).toBe(0);
    expect(calls.checkAvailable).toBeGreaterThanOrEqual(20);
    expect(await filesUnder(blobs)).toEqual([]);
    expect((await filesUnder(getConfig().DATA_DIR)).filter((file) => !file.includes(`${path.sep}pglite`))).toEqual(
      before.filter((file) => !file.includes(`${path.sep}pglite`)),
    );
  });

  it("runs the checks at most once per interval and shares a run between concurrent requests", async () => {
    setEnv({ HEALTH_CHECK_INTERVAL_MS: "5000" });
    const calls = countingStore();
    let now = Date.now();
    vi.spyOn(Date, "now").mockImplementation(() => now);

    const concurrent = await Promise.all(Array.from({ length: 50 }, () => get()));
    const bodies = await Promise.all(concurrent.map((response) => response.json()));
    expect(calls.checkAvailable).toBe(1);
    expect(new Set(bodies.map((body) => body.checkedAt)).size).toBe(1);

    // Storage breaks: within the interval the cached answer stands.
    const directory = await scratchDirectory("cache");
    await writeFile(path.join(directory, "file"), "not a directory");
    countingStore(new LocalObjectStore(path.join(directory, "file")));
    now += 4_999;
    expect((await get()).status).toBe(200);

    // Once the interval has passed, the next request runs the checks again and sees it.
    now += 1;
    expect((await get()).status).toBe(503);
  });
});
