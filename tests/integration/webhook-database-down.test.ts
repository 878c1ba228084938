import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { PrismaClient } from "@/lib/db/generated/client";
import { groupNow } from "@/lib/incidents/grouper";
import { callPayloadKey } from "@/lib/intake/receive";
import { countPending, reconcilePending } from "@/lib/reconcile/start-reconciler";
import { listPending } from "@/lib/intake/pending";
import { type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { retellCallEvent } from "@/lib/voice-platforms/retell/sample-events";
import { vapiEndOfCallReport } from "@/lib/voice-platforms/vapi/sample-events";
import { setDatabaseReachable } from "../support/database-reachable";
import { webhookRequest } from "../support/webhook-request";
import { webhookPostAt } from "@/tests/support/platform-routes";

const retellPost = webhookPostAt("retell");
const vapiPost = webhookPostAt("vapi");

const SECRET = "wsec_db_down_secret";
const VAPI_SECRET = "vapi_db_down_secret";
const RETELL_KEY = "key_db_down_retell";
let counter = 0;
const nextId = (label: string) => `conv_dbdown_${label}_${++counter}`;

async function post(body: unknown) {
  const response = await POST(webhookRequest(body, { secret: SECRET }), undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A Vapi report or a Retell event, signed as the platform signs it. */
async function postPlatform(platform: "vapi" | "retell", body: unknown) {
  const raw = JSON.stringify(body);
  const headers =
    platform === "vapi" ? vapiHmacHeaders(VAPI_SECRET, raw) : { "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) };
  const request = new Request(`http://localhost/api/voiceagent-webhook/${platform}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw,
  });
  const response = await (platform === "vapi" ? vapiPost : retellPost)(request, undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const takeDatabaseDown = () => setDatabaseReachable(false);
const bringDatabaseBack = () => setDatabaseReachable(true);

/** Creation rows in insertion order: which conversations were recorded, how often, in which order. */
async function creations(ids: string[]) {
  const rows = await (await getDb()).callStatusChange.findMany({
    where: { fromStatus: null, call: { conversationId: { in: ids } } },
    include: { call: { select: { conversationId: true } } },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => row.call.conversationId);
}

describe.skipIf(inject("testDatabase").kind !== "postgresql")("webhooks while PostgreSQL is down", () => {
  let storeDir: string;
  let store: ObjectStore;

  beforeAll(() => {
    process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
    process.env.VAPI_WEBHOOK_SECRET = VAPI_SECRET;
    process.env.RETELL_API_KEY = RETELL_KEY;
    resetConfigForTests();
  });

  beforeEach(async () => {
    // A store of this test's own, so its pending folder holds only this test's markers.
    storeDir = await mkdtemp(path.join(tmpdir(), "mayday-pending-"));
    store = new LocalObjectStore(storeDir);
    setObjectStoreForTests(store);
  });

  afterEach(async () => {
    await bringDatabaseBack();
    setObjectStoreForTests(undefined);
    await rm(storeDir, { recursive: true, force: true });
  });

  afterAll(() => {
    delete process.env.VOICEAGENT_WEBHOOK_SECRET;
    delete process.env.VAPI_WEBHOOK_SECRET;
    delete process.env.RETELL_API_KEY;
    resetConfigForTests();
  });

  it("Vapi reports are acknowledged and kept while it is down, and recorded once each when it is back", async () => {
    // Vapi sends a report once and does not retry: the first answer has to be the one that keeps it.
    const ids = Array.from({ length: 30 }, (_, i) => nextId(`vapi${i}`));
    await takeDatabaseDown();
    for (const id of ids) {
      expect(await postPlatform("vapi", vapiEndOfCallReport(id, { endedAt: 1_767_225_600_000 + counter * 1000 }))).toEqual({
        status: 200,
        body: { status: "success", message: "Webhook received" },
      });
    }
    expect(await countPending(store)).toBe(ids.length);

    await bringDatabaseBack();
    expect(await reconcilePending({ store, batchSize: 7 })).toEqual({ ran: true, recorded: ids.length, remaining: 0 });
    const conversationIds = ids.map((id) => `vapi:${id}`);
    expect(await creations(conversationIds)).toEqual(conversationIds);
    const calls = await (await getDb()).call.findMany({ where: { conversationId: { in: conversationIds } } });
    expect(calls.every((call) => call.platform === "vapi" && call.emergencyType === "structure_fire")).toBe(true);
  });

  it("Retell's call_ended and call_analyzed deferred in either order make one record with the analysis", async () => {
    const first = nextId("retell-a");
    const second = nextId("retell-b");
    await takeDatabaseDown();
    for (const [id, events] of [
      [first, ["call_ended", "call_analyzed", "call_ended"]],
      [second, ["call_analyzed", "call_ended", "call_analyzed"]],
    ] as const) {
      for (const event of events) expect((await postPlatform("retell", retellCallEvent(event, id))).status).toBe(200);
    }
    await bringDatabaseBack();
    expect((await reconcilePending({ store })).remaining).toBe(0);
    for (const id of [first, second]) {
      const call = await (await getDb()).call.findUnique({ where: { conversationId: `retell:${id}` } });
      expect(call).toMatchObject({ platform: "retell", emergencyType: "structure_fire", severity: "critical", awaitingAnalysis: false });
      expect(await creations([`retell:${id}`])).toHaveLength(1);
    }
  });

  it("answers 200 with the payload archived and pending, then records each call once, in arrival order", async () => {
    const events = Array.from({ length: 12 }, (_, i) => specCallEvent(nextId(`order${i}`), { eventTimestamp: 1_767_225_600 + i }));
    const ids = events.map((event) => event.data.conversation_id);
    await takeDatabaseDown();
    const answers = [];
    for (const event of events) answers.push(await post(event));
    // The platform redelivers two of them while the database is still down.
    answers.push(await post(events[3]), await post(events[7]));
    expect(answers).toEqual(Array(14).fill({ status: 200, body: { status: "success", message: "Webhook received" } }));

    for (const event of events) {
      const key = callPayloadKey(event.data.conversation_id, event.event_timestamp);
      expect((await store.get(key))?.toString()).toBe(JSON.stringify(event));
    }
    const pending = await listPending(store);
    expect(pending.map((marker) => marker.payloadKey)).toEqual(
      [...events, events[3], events[7]].map((event) => callPayloadKey(event.data.conversation_id, event.event_timestamp)),
    );

    await bringDatabaseBack();
    expect(await creations(ids)).toEqual([]);
    const result = await reconcilePending({ store, batchSize: 5 });
    expect(result).toEqual({ ran: true, recorded: 12, remaining: 0 });
    expect(await creations(ids)).toEqual(ids);
    expect(await countPending(store)).toBe(0);
    // Stored in batches, grouped after them: the twelve callers about one place, one incident.
    await groupNow();
    const calls = await (await getDb()).call.findMany({ where: { conversationId: { in: ids } }, select: { incidentId: true, groupingPending: true } });
    expect(calls.every((call) => !call.groupingPending)).toBe(true);
    expect(new Set(calls.map((call) => call.incidentId)).size).toBe(1);

    // A later redelivery (the platform retried anyway) changes nothing.
    expect((await post(events[0])).status).toBe(200);
    expect(await creations(ids)).toEqual(ids);
  });

  it("a pass while the database is still down records nothing and keeps every marker", async () => {
    await takeDatabaseDown();
    const events = [specCallEvent(nextId("still-down")), specCallEvent(nextId("still-down"))];
    for (const event of events) expect((await post(event)).status).toBe(200);
    await expect(reconcilePending({ store })).rejects.toThrow();
    expect(await countPending(store)).toBe(2);
    await bringDatabaseBack();
    expect(await reconcilePending({ store })).toEqual({ ran: true, recorded: 2, remaining: 0 });
    expect(await creations(events.map((event) => event.data.conversation_id))).toHaveLength(2);
  });

  it("a failed call and a recording are deferred and recorded like a transcription", async () => {
    const id = nextId("events");
    const audio = randomBytes(3_000);
    const events = [
      specCallEvent(id),
      {
        type: "call_initiation_failure",
        event_timestamp: 1_767_240_000,
        data: { agent_id: "agent_911", conversation_id: nextId("failed"), failure_reason: "busy", metadata: { type: "twilio", body: { To: "+16155550188" } } },
      },
      { type: "post_call_audio", event_timestamp: 1_767_250_000, data: { agent_id: "agent_911", conversation_id: id, full_audio: audio.toString("base64") } },
    ];
    await takeDatabaseDown();
    for (const event of events) expect((await post(event)).status).toBe(200);
    expect(await countPending(store)).toBe(3);

    await bringDatabaseBack();
    expect(await reconcilePending({ store, batchSize: 5 })).toEqual({ ran: true, recorded: 3, remaining: 0 });
    const db = await getDb();
    expect(await db.call.findUnique({ where: { conversationId: events[1].data.conversation_id } })).toMatchObject({
      status: "failed",
      failureReason: "busy",
    });
    expect(await db.callRecording.findUnique({ where: { conversationId: id } })).toMatchObject({ sizeBytes: 3_000n });
    expect((await store.get(`calls/${id}/${id}_recording.mp3`))!.equals(audio)).toBe(true);
  });

  it("object storage down as well: 500 STORAGE_ERROR, so the platform retries", async () => {
    const noMarkers: ObjectStore = {
      kind: "no-markers",
      get: (key) => store.get(key),
      readRange: (key, range) => store.readRange(key, range),
      list: (folder) => store.list(folder),
      delete: (key) => store.delete(key),
      checkAvailable: () => store.checkAvailable(),
      async put(key, body, type) {
        if (key.startsWith("pending/")) throw new Error("EIO: storage failed");
        await store.put(key, body, type);
      },
    };
    setObjectStoreForTests(noMarkers);
    await takeDatabaseDown();
    const result = await post(specCallEvent(nextId("both-down")));
    expect(result.status).toBe(500);
    expect(result.body).toMatchObject({ status: "error", error_code: "STORAGE_ERROR" });
  });

  it("two instances reconciling at once record each payload once between them", async () => {
    const events = Array.from({ length: 40 }, (_, i) => specCallEvent(nextId(`two${i}`)));
    await takeDatabaseDown();
    for (const event of events) expect((await post(event)).status).toBe(200);
    await bringDatabaseBack();

    // The second instance: a Prisma client and pool of its own on the same database.
    const other = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) });
    let recordedPerPass: number[] = [];
    const ingested = new Map<string, number>();
    try {
      const passes = await Promise.all([
        reconcilePending({ store, batchSize: 2 }),
        reconcilePending({ store, batchSize: 2, db: other, kind: "postgresql" }),
      ]);
      recordedPerPass = passes.map((pass) => pass.recorded);
      for (const id of await creations(events.map((event) => event.data.conversation_id))) {
        ingested.set(id, (ingested.get(id) ?? 0) + 1);
      }
    } finally {
      await other.$disconnect();
    }
    // Without the lock both passes list all 40 markers before either removes one: 80 recordings.
    expect(recordedPerPass.reduce((sum, recorded) => sum + recorded, 0)).toBe(40);
    expect([...ingested.values()]).toEqual(Array(40).fill(1));
    expect(await countPending(store)).toBe(0);
  });
});
