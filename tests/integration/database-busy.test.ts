import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { POST as webhookPost } from "@/app/api/voiceagent-webhook/route";
import { POST as stateRoute } from "@/app/api/units/[id]/state/route";
import { POST as createRoute } from "@/app/api/units/route";
import { CHANGE_FEED_LOCK } from "@/lib/feed";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { countPending, reconcilePending } from "@/lib/reconcile/start-reconciler";
import { setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { unitSchema } from "@/lib/units/schema";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { webhookRequest } from "../support/webhook-request";

const SECRET = "wsec_database_busy";

/** Another session holds the change feed's lock: every writer waits, past its statement time limit. */
async function feedLockHeld<T>(work: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: getConfig().DATABASE_URL });
  await holder.connect();
  try {
    await holder.query("SELECT pg_advisory_lock($1::bigint)", [CHANGE_FEED_LOCK]);
    return await work();
  } finally {
    await holder.end();
  }
}

const post = (url: string, body: unknown) =>
  apiRequest(`http://localhost${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe.skipIf(inject("testDatabase").kind !== "postgresql")("a database too busy to answer in time", () => {
  let storeDir: string;
  let store: LocalObjectStore;

  beforeAll(async () => {
    // A short statement limit, so a writer behind the held lock gives up quickly (the database opens lazily, after this).
    process.env.DB_STATEMENT_TIMEOUT_MS = "500";
    process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
    resetConfigForTests();
    storeDir = await mkdtemp(path.join(tmpdir(), "mayday-busy-"));
    store = new LocalObjectStore(storeDir);
    setObjectStoreForTests(store);
  });

  afterAll(async () => {
    delete process.env.DB_STATEMENT_TIMEOUT_MS;
    delete process.env.VOICEAGENT_WEBHOOK_SECRET;
    resetConfigForTests();
    setObjectStoreForTests(undefined);
    await rm(storeDir, { recursive: true, force: true });
  });

  it("a write answers 503 DATABASE_BUSY with Retry-After and changes nothing; the same write succeeds once the load is gone", async () => {
    const created = await createRoute(post("/api/units", { call_sign: "B1", type: "engine" }), undefined);
    const unit = unitSchema.parse(await created.json());
    const context = { params: Promise.resolve({ id: unit.id }) };

    const refused = await feedLockHeld(() => stateRoute(post(`/api/units/${unit.id}/state`, { state: "out_of_service" }), context));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(await refused.json()).toMatchObject({ error: "Database busy", error_code: "DATABASE_BUSY" });
    const db = await getDb();
    expect(await db.unit.findUniqueOrThrow({ where: { id: unit.id } })).toMatchObject({ state: "available" });
    expect(await db.unitStateChange.count({ where: { unitId: unit.id } })).toBe(1);

    const again = await stateRoute(post(`/api/units/${unit.id}/state`, { state: "out_of_service" }), context);
    expect(again.status).toBe(200);
    expect(unitSchema.parse(await again.json()).state).toBe("out_of_service");
  });

  it("a voice agent's call is kept while the database is busy, and recorded once it is not", async () => {
    const event = specCallEvent("conv_database_busy_1");
    const answer = await feedLockHeld(() => webhookPost(webhookRequest(event, { secret: SECRET }), undefined));
    expect(answer.status).toBe(200);
    expect(await countPending(store)).toBe(1);
    expect(await (await getDb()).call.count({ where: { conversationId: "conv_database_busy_1" } })).toBe(0);

    expect(await reconcilePending({ store })).toMatchObject({ recorded: 1, remaining: 0 });
    expect(await (await getDb()).call.count({ where: { conversationId: "conv_database_busy_1" } })).toBe(1);
  });
});
