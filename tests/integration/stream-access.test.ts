import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { API_KEY_ACTOR } from "@/lib/access/actor";
import { createKey, revokeKey } from "@/lib/access/keys";
import { removeUser } from "@/lib/access/people";
import { signOut } from "@/lib/access/session";
import { GET as streamRoute } from "@/app/api/calls/stream/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { stopChangeTail } from "@/lib/board/change-tail";
import { closeRedis } from "@/lib/redis";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { signedIn } from "../support/people";
import { readEvents } from "../support/sse";
import { webhookRequest } from "../support/webhook-request";

/**
 * An open change stream reads callers' summaries, numbers and locations as they come: it must end
 * once its credential no longer may read (docs/security.md, "Open streams"), on every instance.
 */

// Only the access change's notification (or the credential's expiry) can end a stream within a
// test's wait: the periodic reads are far off.
process.env.LIVE_FEED_SAFETY_READ_MS = "600000";
resetConfigForTests();

const open: AbortController[] = [];

async function connect(headers: Record<string, string>) {
  const controller = new AbortController();
  open.push(controller);
  const response = await streamRoute(new Request("http://localhost/api/calls/stream", { headers, signal: controller.signal }), undefined);
  expect(response.status).toBe(200);
  const stream = readEvents(response.body!);
  await stream.until(() => stream.comments.some((comment) => comment.startsWith("connected")));
  return stream;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const receive = async (conversationId: string) => {
  const response = await webhook(webhookRequest(specCallEvent(conversationId, { location: "Mission District, San Francisco" })), undefined);
  expect(response.status).toBe(200);
};

describe("an open change stream ends with its credential", () => {
  afterEach(() => {
    for (const controller of open.splice(0)) controller.abort();
  });
  afterAll(async () => {
    await stopChangeTail();
    await closeRedis();
  });

  it("ends when its person is removed, and a stream of someone else goes on", async () => {
    const removed = await signedIn("dispatcher");
    const stays = await signedIn("viewer");
    const ending = await connect({ cookie: removed.cookie });
    const going = await connect({ cookie: stays.cookie });
    await removeUser(removed.user.id, API_KEY_ACTOR);
    await ending.ended();
    await receive("conv-stream-access-1");
    await going.until(() => going.events.length > 0);
  });

  it("ends when its session is signed out", async () => {
    const person = await signedIn("viewer");
    const stream = await connect({ cookie: person.cookie });
    await signOut(new Headers({ cookie: person.cookie }), "127.0.0.1", false);
    await stream.ended();
  });

  it("ends when its key is revoked, and a stream of another key goes on", async () => {
    const revoked = await createKey({ name: "stream revoked", scopes: ["read"] }, API_KEY_ACTOR);
    const kept = await createKey({ name: "stream kept", scopes: ["read"] }, API_KEY_ACTOR);
    const ending = await connect(bearer(revoked.key));
    const going = await connect(bearer(kept.key));
    await revokeKey(revoked.id, API_KEY_ACTOR);
    await ending.ended();
    await receive("conv-stream-access-2");
    await going.until(() => going.events.length > 0);
  });

  it("ends when its key expires, nothing else happening", async () => {
    const key = await createKey({ name: "stream expiring", scopes: ["read"], expires_at: new Date(Date.now() + 2_000).toISOString() }, API_KEY_ACTOR);
    const stream = await connect(bearer(key.key));
    await stream.ended();
  });

  it("ends when its session expires, nothing else happening", async () => {
    const person = await signedIn("viewer");
    // The 12-hour session, shortened to seconds before the stream opens.
    const db = await getDb();
    await db.$executeRaw`UPDATE sessions SET expires_at = now() + interval '2 seconds' WHERE user_id = ${person.user.id}`;
    const stream = await connect({ cookie: person.cookie });
    await stream.ended();
  });

  it.skipIf(!getConfig().DATABASE_URL)("ends on a second instance when the key is revoked or the person removed on the first", async () => {
    const key = await createKey({ name: "stream on instance B", scopes: ["read"] }, API_KEY_ACTOR);
    const person = await signedIn("viewer");
    const instanceB = spawn("npx", ["tsx", "tests/support/instance-b-stream.ts"], {
      env: { ...process.env, LOG_LEVEL: "silent" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = createInterface({ input: instanceB.stdout })[Symbol.asyncIterator]();
    const expectLine = async (expected: string) => {
      const { value, done } = await lines.next();
      if (done) throw new Error("instance B ended");
      expect(value).toBe(expected);
    };
    try {
      instanceB.stdin.write(`${JSON.stringify(bearer(key.key))}\n`);
      await expectLine("open 0");
      instanceB.stdin.write(`${JSON.stringify({ cookie: person.cookie })}\n`);
      await expectLine("open 1");
      await revokeKey(key.id, API_KEY_ACTOR);
      await expectLine("ended 0");
      await removeUser(person.user.id, API_KEY_ACTOR);
      await expectLine("ended 1");
    } finally {
      instanceB.kill();
    }
  }, 90_000);
});
