import { apiRequest } from "@/tests/support/auth";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GET as changesRoute } from "@/app/api/calls/changes/route";
import { GET as streamRoute } from "@/app/api/calls/stream/route";
import { PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import type { CallRecord } from "@/lib/calls/schema";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db/client";
import { readFeedHead } from "@/lib/feed";
import { changePageSchema, callChangeSchema, isCallChange } from "@/lib/board/schema";
import { openChangeStream } from "@/lib/board/change-stream";
import { getChangeTail, stopChangeTail } from "@/lib/board/change-tail";
import { closeRedis } from "@/lib/redis";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { readEvents } from "../support/sse";
import { webhookRequest } from "../support/webhook-request";

// Only a notification can deliver within a test's wait: the safety read is far off.
process.env.LIVE_FEED_SAFETY_READ_MS = "600000";
resetConfigForTests();

const open: AbortController[] = [];

function connect(options: { after?: number; lastEventId?: string } = {}) {
  const controller = new AbortController();
  open.push(controller);
  const url = `http://localhost/api/calls/stream${options.after !== undefined ? `?after=${options.after}` : ""}`;
  const headers = options.lastEventId ? { "last-event-id": options.lastEventId } : undefined;
  return streamRoute(apiRequest(url, { headers, signal: controller.signal }), undefined).then((response) => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    return { stream: readEvents(response.body!), close: () => controller.abort() };
  });
}

const receive = async (conversationId: string) => {
  const response = await webhook(webhookRequest(specCallEvent(conversationId, { location: "Mission District, San Francisco" })), undefined);
  expect(response.status).toBe(200);
};

const move = async (conversationId: string, status: string) => {
  const response = await patchCall(
    apiRequest(`http://localhost/api/calls/${conversationId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ status }) }),
    { params: Promise.resolve({ id: conversationId }) },
  );
  expect(response.status).toBe(200);
};

const changesOf = (events: { id?: string; data?: string }[]) =>
  events.map((event) => {
    const change = callChangeSchema.parse(JSON.parse(event.data!));
    expect(event.id).toBe(String(change.change));
    return change;
  });

/** The picture a client builds from changes: each call's latest state. */
function picture(changes: { call: CallRecord }[], into = new Map<string, CallRecord>()) {
  for (const { call } of changes) into.set(call.conversation_id, call);
  return into;
}

const startCursor = async () => readFeedHead(await getDb());

describe("change stream", () => {
  afterEach(() => {
    for (const controller of open.splice(0)) controller.abort();
  });
  afterAll(async () => {
    await stopChangeTail();
    await closeRedis();
  });

  it("sends each change with its number as id, and resumes from Last-Event-ID with no gap and no duplicate", async () => {
    const start = await startCursor();
    const first = await connect({ after: start });
    await receive("conv-stream-1");
    await receive("conv-stream-2");
    // A webhook call changes twice: stored, then geocoded.
    await first.stream.until(() => picture(changesOf(first.stream.events)).size >= 2);
    const before = changesOf(first.stream.events);
    expect([...new Set(before.map((change) => change.call.conversation_id))]).toEqual(["conv-stream-1", "conv-stream-2"]);
    first.close();

    // Missed while disconnected: a new call, a status move, a call moved twice.
    await receive("conv-stream-3");
    await move("conv-stream-1", "dispatched");
    await move("conv-stream-2", "enroute");
    await move("conv-stream-2", "resolved");
    const second = await connect({ lastEventId: String(before.at(-1)!.change) });
    await second.stream.until(() => picture(changesOf(second.stream.events)).get("conv-stream-2")?.status === "resolved");
    const after = changesOf(second.stream.events);
    const numbers = after.map((change) => change.change);
    expect(numbers[0]).toBeGreaterThan(before.at(-1)!.change);
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));

    // What the client holds equals what the feed holds from the same start.
    const client = picture(after, picture(before));
    const page = changePageSchema.parse(await (await changesRoute(apiRequest(`http://localhost/api/calls/changes?after=${start}`), undefined)).json());
    expect(client).toEqual(picture(page.changes.filter(isCallChange)));
    expect([...client.values()].map((call) => [call.conversation_id, call.status]).sort()).toEqual([
      ["conv-stream-1", "dispatched"],
      ["conv-stream-2", "resolved"],
      ["conv-stream-3", "active"],
    ]);
  });

  it("loses no change across a server restart (the process's tail and database connection gone)", async () => {
    const start = await startCursor();
    const before = await connect({ after: start });
    await receive("conv-restart-1");
    await before.stream.until(() => changesOf(before.stream.events).some((change) => change.call.latitude !== null));
    const last = changesOf(before.stream.events).at(-1)!.change;
    before.close();

    await stopChangeTail();
    await closeDb();
    // Written by someone else while this instance is down.
    if (getConfig().DATABASE_URL) {
      const client = new pg.Client({ connectionString: getConfig().DATABASE_URL });
      await client.connect();
      await client.query("UPDATE calls SET status = 'dispatched' WHERE conversation_id = 'conv-restart-1'");
      await client.end();
    } else {
      await (await getDb()).call.update({ where: { conversationId: "conv-restart-1" }, data: { status: "dispatched" } });
    }
    await receive("conv-restart-2");

    const after = await connect({ lastEventId: String(last) });
    await after.stream.until(() => after.stream.events.length >= 2);
    expect(changesOf(after.stream.events).map((change) => [change.call.conversation_id, change.call.status])).toEqual([
      ["conv-restart-1", "dispatched"],
      ["conv-restart-2", "active"],
    ]);
  });

  it.skipIf(!getConfig().DATABASE_URL)("delivers a call received by another app instance (another process on the same PostgreSQL)", async () => {
    const here = await connect();
    // The stream is at the head once its first comment arrived.
    await here.stream.until(() => here.stream.comments.some((comment) => comment.startsWith("connected")));
    await promisify(execFile)("npx", ["tsx", "tests/support/instance-b.ts", "conv-instance-b"], {
      env: { ...process.env, LOG_LEVEL: "silent" },
      timeout: 60_000,
    });
    await here.stream.until(() => here.stream.events.length >= 1);
    expect(changesOf(here.stream.events).map((change) => change.call.conversation_id)).toContain("conv-instance-b");
  });

  it("with no stream open the tail follows only the head; a stream opened then gets every later change", async () => {
    const tail = getChangeTail();
    await tail.start();
    const start = await startCursor();
    await receive("conv-head-only-1");
    await expect.poll(() => tail.currentHead(), { timeout: 5_000 }).toBe(await startCursor());
    // Nothing was read into memory for streams that were not there.
    expect(tail.since(start)).toBeUndefined();

    const client = await connect();
    await client.stream.until(() => client.stream.comments.some((comment) => comment.startsWith("connected")));
    await receive("conv-head-only-2");
    await client.stream.until(() => changesOf(client.stream.events).some((change) => change.call.conversation_id === "conv-head-only-2"));
    expect(changesOf(client.stream.events).map((change) => change.call.conversation_id)).not.toContain("conv-head-only-1");
    expect(tail.since(start)).toBeUndefined();
    const second = changesOf(client.stream.events).find((change) => change.call.conversation_id === "conv-head-only-2")!;
    expect(tail.since(second.change - 1)?.map((change) => change.change)).toEqual([second.change]);
  });

  it("a client that goes away frees its listener at once", async () => {
    const tail = getChangeTail();
    await tail.start();
    const idle = tail.listeners;
    const client = await connect();
    await client.stream.until(() => tail.listeners === idle + 1);
    client.close();
    await client.stream.until(() => tail.listeners === idle, 1_000).catch(() => {});
    expect(tail.listeners).toBe(idle);
  });

  it("sends heartbeat comments while idle", async () => {
    const controller = new AbortController();
    open.push(controller);
    const stream = readEvents(openChangeStream({ after: undefined, signal: controller.signal, heartbeatMs: 50 }));
    await stream.until(() => stream.comments.filter((comment) => comment === "heartbeat").length >= 2);
  });

  it("refuses a Last-Event-ID that is not a change number", async () => {
    const response = await streamRoute(apiRequest("http://localhost/api/calls/stream", { headers: { "last-event-id": "x1" } }), undefined);
    expect(response.status).toBe(400);
  });
});
