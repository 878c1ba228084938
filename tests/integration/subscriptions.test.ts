import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as replayRoute } from "@/app/api/subscriptions/[id]/replay/route";
import { PATCH as patchRoute } from "@/app/api/subscriptions/[id]/route";
import { GET as deliveriesRoute } from "@/app/api/subscriptions/[id]/deliveries/route";
import { POST as createRoute, GET as listRoute } from "@/app/api/subscriptions/route";
import { POST as webhookRoute } from "@/app/api/voiceagent-webhook/route";
import { callTrackingId } from "@/lib/calls/tracking-id";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { stopChangeTail } from "@/lib/board/change-tail";
import type { DeliveryPage, SubscriptionView, SubscriptionWithSecret } from "@/lib/subscriptions/schema";
import { type DeliveryWorker, startDeliveryWorker } from "@/lib/subscriptions/worker";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { validateEido } from "../support/eido-schema";
import { secondInstance } from "../support/exercise-clock";
import { webhookRequest } from "../support/webhook-request";

const FAST_RETRY = { firstMs: 20, maxMs: 80, windowMs: 60 * 60 * 1000 };

interface Received {
  id: string;
  type: string;
  headers: Record<string, string>;
  body: string;
}

/** A receiver on 127.0.0.1: records every request, answers with `answer` (200 by default). */
async function receiver(answer: (request: Received, response: http.ServerResponse) => void = (_, response) => response.end("ok")) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const entry = { id: headers["webhook-id"], type: headers["mayday-event-type"], headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = { "content-type": "application/json" };
const context = (id: string) => ({ params: Promise.resolve({ id }) });

async function subscribe(body: Record<string, unknown>): Promise<{ status: number; body: SubscriptionWithSecret & { error?: string; message?: string } }> {
  const response = await createRoute(
    apiRequest("http://localhost/api/subscriptions", { method: "POST", headers: json, body: JSON.stringify(body) }),
    undefined,
  );
  return { status: response.status, body: await response.json() };
}

const ALL_TYPES = ["call.created", "call.status_changed", "incident.created", "incident.updated", "incident.closed"];

let calls = 0;
/** A voice-agent call through the webhook route; calls at one location group into one incident. */
async function postCall(location = "1200 Sunset Blvd, Pacific Palisades", phone?: string): Promise<string> {
  calls += 1;
  const id = `conv_sub_${calls}_${Math.random().toString(36).slice(2, 8)}`;
  const event = specCallEvent(id, { location, eventTimestamp: 1_767_225_600 + calls });
  if (phone) Object.assign(event.data.metadata, { phone_call: { external_number: phone } });
  const response = await webhookRoute(webhookRequest(event), undefined);
  expect(response.status).toBe(200);
  return id;
}

/** Waits until `done()` holds (each check after the worker went idle); fails after 200 rounds. */
async function until(workers: DeliveryWorker[], done: () => boolean): Promise<void> {
  for (let round = 0; round < 200; round++) {
    for (const worker of workers) worker.kick();
    await Promise.all(workers.map((worker) => worker.idle()));
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition never held");
}

const setAllowPrivate = (allowed: boolean) => {
  process.env.SUBSCRIPTION_ALLOW_PRIVATE_TARGETS = allowed ? "true" : "false";
  resetConfigForTests();
};

describe("outbound webhooks", () => {
  const workers: DeliveryWorker[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  beforeEach(() => setAllowPrivate(true));
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await stopChangeTail();
    const db = await getDb();
    await db.$executeRaw`DELETE FROM subscriptions`;
  });
  const start = (options: Parameters<typeof startDeliveryWorker>[0] = {}) => {
    const worker = startDeliveryWorker({ retry: FAST_RETRY, pollMs: 50, ...options });
    workers.push(worker);
    return worker;
  };
  const listen = async (answer?: Parameters<typeof receiver>[0]) => {
    const server = await receiver(answer);
    cleanups.push(server.close);
    return server;
  };

  it("sends each event signed (Webhook.verify), with a stable id, in change order per incident", async () => {
    const target = await listen();
    const { status, body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ALL_TYPES });
    expect(status).toBe(201);
    expect(subscription.secret).toMatch(/^whsec_/);
    const worker = start();
    const first = await postCall();
    await postCall();
    await postCall();
    await until([worker], () => target.received.filter((entry) => entry.type === "call.created").length === 3);

    const verifier = new Webhook(subscription.secret);
    const bodies = target.received.map((entry) => verifier.verify(entry.body, entry.headers) as { id: string; type: string; change: number; data: { call: { conversation_id: string; incident_id: string } } });
    expect(bodies.map((body) => body.id)).toEqual(target.received.map((entry) => entry.id));
    expect(new Set(bodies.map((body) => body.id)).size).toBe(bodies.length);
    // One incident: created with the first call, updated by each later one, in change order.
    const incidentEvents = bodies.filter((body) => body.type.startsWith("incident."));
    expect(incidentEvents[0].type).toBe("incident.created");
    expect(incidentEvents.slice(1).every((body) => body.type === "incident.updated")).toBe(true);
    const changes = bodies.map((body) => body.change);
    expect(changes).toEqual([...changes].sort((a, b) => a - b));
    expect(bodies[0]).toMatchObject({ type: "call.created", data: { call: { conversation_id: first } } });
    // A tampered body fails verification.
    expect(() => verifier.verify(target.received[0].body.replace("call", "cell"), target.received[0].headers)).toThrow();
  });

  it("retries a receiver that is down and, once back, it has every event exactly once", async () => {
    let down = true;
    const accepted: Received[] = [];
    const target = await listen((entry, response) => {
      response.statusCode = down ? 503 : 200;
      if (!down) accepted.push(entry);
      response.end(down ? "maintenance" : "ok");
    });
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["call.created"] });
    const worker = start();
    const ids = [await postCall("1 Main St, Nashville"), await postCall("2 Oak Ave, Nashville"), await postCall("3 Elm St, Nashville")];
    await until([worker], () => target.received.length >= 4);
    down = false;
    await until([worker], () => accepted.length >= 3);
    const verifier = new Webhook(subscription.secret);
    const conversations = accepted.map((entry) => (verifier.verify(entry.body, entry.headers) as { data: { call: { conversation_id: string } } }).data.call.conversation_id);
    expect(conversations).toEqual(ids);
    expect(new Set(accepted.map((entry) => entry.id)).size).toBe(3);
    const response = await deliveriesRoute(apiRequest(`http://localhost/api/subscriptions/${subscription.id}/deliveries`), context(subscription.id));
    const log = (await response.json()) as DeliveryPage;
    const successes = log.deliveries.filter((delivery) => delivery.status === 200);
    // Each event succeeded once; the refusals before were logged with rising attempt numbers.
    expect(successes.map((delivery) => delivery.event_id).sort()).toEqual([...new Set(successes.map((delivery) => delivery.event_id))].sort());
    expect(successes).toHaveLength(3);
    const refused = log.deliveries.filter((delivery) => delivery.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...refused.map((delivery) => delivery.attempt))).toBeGreaterThanOrEqual(2);
    expect(refused[0].error).toContain("maintenance");
  });

  it("marks a subscription failing after the retry window, keeps its cursor, and replays from a change", async () => {
    const target = await listen((_, response) => {
      response.statusCode = 500;
      response.end();
    });
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["call.created"] });
    const worker = start({ retry: { firstMs: 10, maxMs: 20, windowMs: 50 } });
    await postCall("9 Pine St, Tampa");
    const state = async () => {
      const response = await listRoute(apiRequest("http://localhost/api/subscriptions"), undefined);
      return ((await response.json()) as { subscriptions: SubscriptionView[] }).subscriptions.find((row) => row.id === subscription.id)!;
    };
    let view = await state();
    for (let round = 0; round < 200 && view.health !== "failing"; round++) {
      await until([worker], () => true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await state();
    }
    expect(view.health).toBe("failing");
    expect(view.cursor).toBe(subscription.cursor);

    // Replaying from before the subscription sends what was there too, once the receiver is fixed.
    const fixed = await listen();
    await patchRoute(
      apiRequest(`http://localhost/api/subscriptions/${subscription.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ url: fixed.url }) }),
      context(subscription.id),
    );
    const replay = await replayRoute(
      apiRequest(`http://localhost/api/subscriptions/${subscription.id}/replay?after=0`, { method: "POST" }),
      context(subscription.id),
    );
    expect(replay.status).toBe(200);
    const db = await getDb();
    const [{ total }] = await db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM calls WHERE NOT grouping_pending`;
    // Every call's creation, with its one id (an attempt under way at the replay may have sent one before it).
    const distinct = () => new Set(fixed.received.map((entry) => entry.id)).size;
    await until([worker], () => distinct() === total);
    expect(fixed.received.every((entry) => entry.type === "call.created")).toBe(true);
    expect((await state()).health).toBe("ok");
  });

  it("delivers each event once per subscription with two instances serving the same subscriptions", async () => {
    const targets = [await listen(), await listen(), await listen()];
    for (const target of targets) await subscribe({ name: "CAD", url: target.url, event_types: ALL_TYPES });
    const other = await secondInstance("subscriptions-instance-b");
    cleanups.push(other.close);
    const a = start();
    const b = start({ db: other.db });
    for (let index = 0; index < 12; index++) await postCall(`${100 + index} Harbor Rd, Miami`);
    const createdOf = (target: (typeof targets)[number]) => target.received.filter((entry) => entry.type === "call.created").length;
    await until([a, b], () => targets.every((target) => createdOf(target) === 12));
    for (const target of targets) {
      const ids = target.received.map((entry) => entry.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    // Every subscription got every call; incident updates fold to the state each one read.
    const created = (target: (typeof targets)[number]) => target.received.filter((entry) => entry.type === "call.created").map((entry) => entry.id);
    expect(created(targets[1])).toEqual(created(targets[0]));
    expect(created(targets[2])).toEqual(created(targets[0]));
  });

  it("sends the incident as an EIDO to a subscription that asks for EIDO bodies", async () => {
    const target = await listen();
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["incident.created"], body_format: "eido" });
    const worker = start();
    const id = await postCall("21 Music Row, Nashville");
    await until([worker], () => target.received.length === 1);
    const [entry] = target.received;
    expect(entry.type).toBe("incident.created");
    const eido = new Webhook(subscription.secret).verify(entry.body, entry.headers) as { callComponent: { $id: string }[] };
    expect(validateEido(eido)).toBe(true);
    expect(eido.callComponent.map((call) => call.$id)).toEqual([callTrackingId(id)]);
  });

  it("keeps events while paused and sends them when enabled again", async () => {
    const target = await listen();
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["call.created"], enabled: false });
    const worker = start();
    const id = await postCall("5 Bay St, Tampa");
    await until([worker], () => true);
    expect(target.received).toHaveLength(0);
    await patchRoute(
      apiRequest(`http://localhost/api/subscriptions/${subscription.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ enabled: true }) }),
      context(subscription.id),
    );
    await until([worker], () => target.received.length === 1);
    expect(JSON.parse(target.received[0].body)).toMatchObject({ type: "call.created", data: { call: { conversation_id: id } } });
  });

  it("signs with both secrets while a rotation's grace lasts", async () => {
    const target = await listen();
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["call.created"] });
    const rotated = await patchRoute(
      apiRequest(`http://localhost/api/subscriptions/${subscription.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ rotate_secret: true }) }),
      context(subscription.id),
    );
    const first = (await rotated.json()) as SubscriptionWithSecret;
    const { secret } = first;
    expect(secret).not.toBe(subscription.secret);
    const worker = start();
    await postCall("7 Gulf Dr, Tampa");
    await until([worker], () => target.received.length === 1);
    const [entry] = target.received;
    expect(entry.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(secret).verify(entry.body, entry.headers)).not.toThrow();
    expect(() => new Webhook(subscription.secret).verify(entry.body, entry.headers)).not.toThrow();
    expect(entry.headers["user-agent"]).toBe("Mayday-Webhooks/1");
    const firstUntil = Date.parse(first.secret_rotated_until!);
    expect(firstUntil).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    // A second rotation within the grace: the first rotation's secret is the previous one now, for
    // 24 hours from this rotation; the original secret signs no more (docs/integrations.md).
    const again = await patchRoute(
      apiRequest(`http://localhost/api/subscriptions/${subscription.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ rotate_secret: true }) }),
      context(subscription.id),
    );
    const second = (await again.json()) as SubscriptionWithSecret;
    expect(Date.parse(second.secret_rotated_until!)).toBeGreaterThanOrEqual(firstUntil);
    await postCall("9 Gulf Dr, Tampa");
    await until([worker], () => target.received.length === 2);
    const latest = target.received[1];
    expect(latest.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(second.secret).verify(latest.body, latest.headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(latest.body, latest.headers)).not.toThrow();
    expect(() => new Webhook(subscription.secret).verify(latest.body, latest.headers)).toThrow();
  });

  it("refuses private, loopback and link-local targets at creation unless allowed", async () => {
    setAllowPrivate(false);
    for (const url of ["http://127.0.0.1:9/hook", "http://169.254.169.254/latest/meta-data", "http://localhost:9/hook", "http://[::1]:9/", "http://10.1.2.3/"]) {
      const { status, body } = await subscribe({ name: "Bad", url, event_types: ["call.created"] });
      expect(status, url).toBe(400);
      expect(body.error).toBe("Invalid url");
    }
    const { status } = await subscribe({ name: "Bad", url: "ftp://example.org/", event_types: ["call.created"] });
    expect(status).toBe(400);
    const db = await getDb();
    const [{ total }] = await db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM subscriptions`;
    expect(total).toBe(0);
  });

  it("refuses a target with credentials (400 naming the rule, the password never echoed), and lists no stored password", async () => {
    const password = "s3cret-pa55";
    for (const url of [`https://cad:${password}@93.184.216.34/hook`, `https://cad@93.184.216.34/hook`, `https://:${password}@93.184.216.34/hook`]) {
      const { status, body } = await subscribe({ name: "With credentials", url, event_types: ["call.created"] });
      expect(status, url).toBe(400);
      expect(body).toMatchObject({ error: "Invalid url", message: expect.stringMatching(/credentials/) });
      expect(JSON.stringify(body)).not.toContain(password);
    }
    const { body: created } = await subscribe({ name: "CAD", url: "https://93.184.216.34/hook", event_types: ["call.created"] });
    const patched = await patchRoute(
      apiRequest(`http://localhost/api/subscriptions/${created.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ url: `https://cad:${password}@93.184.216.34/other` }) }),
      context(created.id),
    );
    expect(patched.status).toBe(400);
    expect(await patched.text()).not.toContain(password);
    // A row stored before the rule: listed without its password.
    const db = await getDb();
    await db.$executeRaw`UPDATE subscriptions SET url = ${`https://cad:${password}@93.184.216.34/hook`} WHERE id = ${created.id}`;
    const listed = await (await listRoute(apiRequest("http://localhost/api/subscriptions"), undefined)).text();
    expect(listed).toContain("93.184.216.34/hook");
    expect(listed).not.toContain(password);
  });

  it("refuses IPv6 targets that carry an IPv4 address (compatible, translated, NAT64, 6to4, Teredo) unless allowed", async () => {
    setAllowPrivate(false);
    for (const host of ["[::7f00:1]", "[::ffff:0:a00:1]", "[64:ff9b:1::a00:1]", "[2002:5db8:d822::1]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]"]) {
      const { status, body } = await subscribe({ name: "Embedded", url: `https://${host}/hook`, event_types: ["call.created"] });
      expect(status, host).toBe(400);
      expect(body.error).toBe("Invalid url");
    }
  });

  it("refuses a private target again at delivery (literal or by name), and keeps the event", async () => {
    const target = await listen();
    const urls = [target.url, target.url.replace("127.0.0.1", "localhost"), "http://169.254.169.254/latest/meta-data"];
    const subscriptions: SubscriptionWithSecret[] = [];
    for (const url of urls) subscriptions.push((await subscribe({ name: "CAD", url, event_types: ["call.created"] })).body);
    setAllowPrivate(false);
    const worker = start();
    await postCall("11 Coral Way, Miami");
    const db = await getDb();
    const attempts = () => db.subscriptionDelivery.findMany({ where: { subscriptionId: { in: subscriptions.map((row) => row.id) } } });
    for (let round = 0; round < 100 && new Set((await attempts()).map((row) => row.subscriptionId)).size < 3; round++) {
      await until([worker], () => true);
    }
    const logged = await attempts();
    expect(new Set(logged.map((row) => row.subscriptionId)).size).toBe(3);
    for (const attempt of logged) {
      expect(attempt.status).toBeNull();
      expect(attempt.error).toMatch(/private, loopback or link-local/);
    }
    expect(target.received).toHaveLength(0);
    for (const subscription of subscriptions) {
      const row = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
      expect(row.cursor).toBe(BigInt(subscription.cursor));
      expect(row.attempt).toBeGreaterThanOrEqual(1);
    }
  });

  it("counts a 2xx as delivered once its status line arrives, whatever its body does", async () => {
    process.env.SUBSCRIPTION_TIMEOUT_MS = "1000";
    resetConfigForTests();
    const open: http.ServerResponse[] = [];
    cleanups.push(async () => {
      for (const response of open) response.destroy();
      delete process.env.SUBSCRIPTION_TIMEOUT_MS;
      resetConfigForTests();
    });
    // The status and a first chunk at once; the rest of the body never comes.
    const target = await listen((_, response) => {
      open.push(response);
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("accepted, still writing");
    });
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["call.created"] });
    const worker = start();
    await postCall("15 Ocean Dr, Miami");
    const db = await getDb();
    await until([worker], () => target.received.length >= 1);
    let attempts = await db.subscriptionDelivery.findMany({ where: { subscriptionId: subscription.id } });
    for (let round = 0; round < 100 && attempts.length === 0; round++) {
      await until([worker], () => true);
      attempts = await db.subscriptionDelivery.findMany({ where: { subscriptionId: subscription.id } });
    }
    expect(attempts.map((attempt) => [attempt.status, attempt.error])).toEqual([[200, null]]);
    const row = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect([row.attempt, row.lastError, row.nextAttemptAt]).toEqual([0, null, null]);
    expect(target.received).toHaveLength(1);
  });

  it("cuts off a receiver that streams a huge refusal at the limit", async () => {
    const target = await listen((_, response) => {
      response.writeHead(500, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once("drain", pump);
      };
      response.on("error", () => {});
      pump();
    });
    const { body: subscription } = await subscribe({ name: "CAD", url: target.url, event_types: ["call.created"] });
    const worker = start();
    await postCall("13 Ocean Dr, Miami");
    const db = await getDb();
    await until([worker], () => target.received.length === 1);
    let attempts = await db.subscriptionDelivery.findMany({ where: { subscriptionId: subscription.id } });
    for (let round = 0; round < 100 && attempts.length === 0; round++) {
      await until([worker], () => true);
      attempts = await db.subscriptionDelivery.findMany({ where: { subscriptionId: subscription.id } });
    }
    expect(attempts[0].status).toBe(500);
    expect(attempts[0].error).toBe("answer cut off after 65536 bytes");
  });
});
