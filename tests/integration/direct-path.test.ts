import { TEST_API_KEY } from "@/tests/support/auth";
import { randomInt } from "node:crypto";
import { createServer, get as httpGet, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createGunzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/calls/route";
import { POST as webhookRoute } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { answerBeforeNext } from "@/lib/http/direct-answers";
import { appendPeer } from "@/lib/http/client-address";
import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { retellCallEvent } from "@/lib/voice-platforms/retell/sample-events";
import { vapiEndOfCallReport } from "@/lib/voice-platforms/vapi/sample-events";
import { withWebhookSecret } from "../support/webhook-secret";
import { webhookRequest } from "../support/webhook-request";
import { webhookPostAt } from "@/tests/support/platform-routes";

const retellRoute = webhookPostAt("retell");
const vapiRoute = webhookPostAt("vapi");

const SECRET = "direct-path-secret";
withWebhookSecret(SECRET);

let server: Server;
let base: string;

beforeAll(async () => {
  // As scripts/server.ts: the peer appended, then the direct path, then Next (here a 418).
  server = createServer((request, response) => {
    request.headers["x-forwarded-for"] = appendPeer(request.headers["x-forwarded-for"], request.socket.remoteAddress);
    if (answerBeforeNext(request, response)) return;
    response.writeHead(418).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const runId = randomInt(1_000_000);
let counter = 0;

function signedPost(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "elevenlabs-signature": signatureHeader(SECRET, body), ...headers },
    body,
  });
}

async function storedCount(conversationId: string): Promise<number> {
  return (await getDb()).call.count({ where: { conversationId } });
}

/** Status, body with its timestamp left out, and the headers both servers must agree on. */
async function comparable(response: Response) {
  const { timestamp, ...body } = (await response.json()) as Record<string, unknown>;
  expect(typeof timestamp === "string" || timestamp === undefined).toBe(true);
  return {
    status: response.status,
    body,
    type: response.headers.get("content-type"),
    cache: response.headers.get("cache-control"),
    limited: response.headers.get("ratelimit-limit"),
  };
}

describe("the production server's own answer to POST /api/voiceagent-webhook", () => {
  it("stores a signed call once, redelivered or not, and answers as the route file does", async () => {
    const conversationId = `conv_direct_${runId}_${++counter}`;
    const body = JSON.stringify(specCallEvent(conversationId));
    const direct = await signedPost(body);
    expect(direct.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    const first = await comparable(direct);
    expect(first).toMatchObject({ status: 200, body: { status: "success", message: "Webhook received" }, cache: "no-store", limited: "1000" });
    expect((await comparable(await signedPost(body))).status).toBe(200);
    expect(await storedCount(conversationId)).toBe(1);

    const viaRoute = await webhookRoute(webhookRequest(specCallEvent(`conv_direct_${runId}_${++counter}`), { secret: SECRET }), undefined);
    expect(await comparable(viaRoute)).toEqual(first);
  });

  it("refuses what the route refuses, in the webhook's error format, and stores nothing", async () => {
    const conversationId = `conv_direct_${runId}_${++counter}`;
    const body = JSON.stringify(specCallEvent(conversationId));
    const cases: [Response, Response][] = [
      [await signedPost(body, { "elevenlabs-signature": "t=1,v0=00" }), await webhookRoute(webhookRequest(body, { headers: { "elevenlabs-signature": "t=1,v0=00" } }), undefined)],
      [await signedPost(body, { "content-type": "text/plain" }), await webhookRoute(webhookRequest(body, { secret: SECRET, headers: { "content-type": "text/plain" } }), undefined)],
      [await signedPost("{not json"), await webhookRoute(webhookRequest("{not json", { secret: SECRET }), undefined)],
      [await signedPost("{}"), await webhookRoute(webhookRequest("{}", { secret: SECRET }), undefined)],
    ];
    const statuses = [];
    for (const [direct, route] of cases) {
      const answer = await comparable(direct);
      expect(answer).toEqual(await comparable(route));
      expect(answer.body).toMatchObject({ status: "error", error_code: expect.any(String) });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 415, 400, 400]);
    expect(await storedCount(conversationId)).toBe(0);
  });

  it("leaves other methods on the webhook's path to Next", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      expect((await fetch(`${base}/api/voiceagent-webhook`, { method })).status, method).toBe(418);
    }
  });
});

describe("the production server's own answer to POST /api/voiceagent-webhook/vapi and /retell", () => {
  const VAPI_SECRET = "direct-path-vapi";
  const RETELL_KEY = "direct-path-retell";
  beforeAll(() => {
    process.env.VAPI_WEBHOOK_SECRET = VAPI_SECRET;
    process.env.RETELL_API_KEY = RETELL_KEY;
    resetConfigForTests();
  });
  afterAll(() => {
    delete process.env.VAPI_WEBHOOK_SECRET;
    delete process.env.RETELL_API_KEY;
    resetConfigForTests();
  });

  const platforms = [
    {
      platform: "vapi",
      route: vapiRoute,
      body: (id: string) => JSON.stringify(vapiEndOfCallReport(id)),
      sign: (body: string) => vapiHmacHeaders(VAPI_SECRET, body),
    },
    {
      platform: "retell",
      route: retellRoute,
      body: (id: string) => JSON.stringify(retellCallEvent("call_analyzed", id)),
      sign: (body: string) => ({ "x-retell-signature": retellSignatureHeader(RETELL_KEY, body) }),
    },
  ] as const;

  it.each(platforms)("$platform: stores the call once and answers as its route file, with its own rate limit", async ({ platform, route, body, sign }) => {
    const post = (raw: string, headers: Record<string, string>) =>
      fetch(`${base}/api/voiceagent-webhook/${platform}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: raw });
    const viaRoute = (raw: string, headers: Record<string, string>) =>
      route(new Request(`http://localhost/api/voiceagent-webhook/${platform}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: raw }), undefined);

    const id = `direct-${runId}-${++counter}`;
    const raw = body(id);
    const first = await comparable(await post(raw, sign(raw)));
    expect(first).toMatchObject({ status: 200, body: { status: "success", message: "Webhook received" }, limited: "3000" });
    expect((await post(raw, sign(raw))).status).toBe(200);
    expect(await storedCount(`${platform}:${id}`)).toBe(1);
    const other = body(`direct-${runId}-${++counter}`);
    expect(await comparable(await viaRoute(other, sign(other)))).toEqual(first);

    const refused = body(`direct-${runId}-${++counter}`);
    const forged = await comparable(await post(refused, sign(`${refused} `)));
    expect(forged).toEqual(await comparable(await viaRoute(refused, sign(`${refused} `))));
    expect(forged).toMatchObject({ status: 401, body: { error_code: "INVALID_SIGNATURE" } });
  });
});

describe("the production server's own answer to GET /api/calls", () => {
  const withKey = { authorization: `Bearer ${TEST_API_KEY}` };
  const list = (search: string, headers: Record<string, string> = withKey) =>
    Promise.all([
      fetch(`${base}/api/calls${search}`, { headers }),
      listRoute(new Request(`http://localhost/api/calls${search}`, { headers }), undefined),
    ]);

  it("answers the route file's page, filters and errors", async () => {
    const conversationId = `conv_direct_${runId}_${++counter}`;
    const event = specCallEvent(conversationId, { location: `${conversationId} Main Street, Springfield` });
    expect((await signedPost(JSON.stringify(event))).status).toBe(200);
    const [direct, route] = await list(`?limit=5&location=${conversationId}`);
    const directBody = await direct.json();
    expect(direct.status).toBe(200);
    expect(directBody).toEqual(await route.json());
    expect(directBody.calls.map((call: { conversation_id: string }) => call.conversation_id)).toEqual([conversationId]);
    expect(direct.headers.get("ratelimit-limit")).toBe("1000");

    // A page is compressed when the client accepts it, as Next compresses the route's answer.
    const page = await fetch(`${base}/api/calls?limit=20`, { headers: { ...withKey, "accept-encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    expect((await page.json()).calls.length).toBeGreaterThan(0);
    const plain = await fetch(`${base}/api/calls?limit=20`, { headers: { ...withKey, "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();

    const [badDirect, badRoute] = await list("?limit=0&severity=apocalyptic");
    expect(await comparable(badDirect)).toEqual(await comparable(badRoute));
    expect(badDirect.status).toBe(400);
  });

  it("answers a read with its ETag, 304 without a body while it is unchanged, as the route file does", async () => {
    const conversationId = `conv_etag_${runId}_${++counter}`;
    const search = `?limit=5&location=${conversationId}`;
    const [direct, route] = await list(search);
    const etag = direct.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);
    expect(route.headers.get("etag")).toBe(etag);
    for (const [answer, label] of [...(await list(search, { ...withKey, "if-none-match": etag! }))].map((answer, index) => [answer, ["direct", "route"][index]] as const)) {
      expect(answer.status, label).toBe(304);
      expect(await answer.text(), label).toBe("");
      expect(answer.headers.get("etag"), label).toBe(etag);
    }
    // The view changes: the answer is whole again, with another ETag, whatever the client names.
    const event = specCallEvent(conversationId, { location: `${conversationId} Main Street, Springfield` });
    expect((await signedPost(JSON.stringify(event))).status).toBe(200);
    const [changed, changedRoute] = await list(search, { ...withKey, "if-none-match": etag! });
    expect([changed.status, changedRoute.status]).toEqual([200, 200]);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect((await changed.json()).calls.map((call: { conversation_id: string }) => call.conversation_id)).toEqual([conversationId]);
    expect(changedRoute.headers.get("etag")).toBe(changed.headers.get("etag"));
    // Errors and writes carry none.
    const [bad] = await list("?limit=0", { ...withKey, "if-none-match": "*" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("etag")).toBeNull();
  });

  it("asks for the API key when one is set, as the route does", async () => {
    process.env.API_KEY = "direct-path-key";
    resetConfigForTests();
    try {
      const [direct, route] = await list("?limit=1", {});
      expect(direct.status).toBe(401);
      expect(await comparable(direct)).toEqual(await comparable(route));
      const [allowed] = await list("?limit=1", { authorization: "Bearer direct-path-key" });
      expect(allowed.status).toBe(200);
    } finally {
      process.env.API_KEY = TEST_API_KEY;
      resetConfigForTests();
    }
  });
});

describe("the production server's own answer to GET /api/calls/stream", () => {
  it("sends each change gzipped as it happens, to a client that accepts gzip", async () => {
    // node:http hands over the bytes as sent (fetch would decode them).
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(`${base}/api/calls/stream`, { headers: { authorization: `Bearer ${TEST_API_KEY}`, "accept-encoding": "gzip" } }, resolve).on("error", reject),
    );
    try {
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBe("gzip");
      expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
      const gunzip = createGunzip();
      let text = "";
      gunzip.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      response.on("data", (chunk: Buffer) => gunzip.write(chunk));
      await expect.poll(() => text, { timeout: 10_000 }).toContain(": connected at change");
      const conversationId = `conv_direct_${runId}_${++counter}`;
      expect((await signedPost(JSON.stringify(specCallEvent(conversationId)))).status).toBe(200);
      // Readable from what has arrived, before any later event pushes it out.
      await expect.poll(() => text, { timeout: 10_000 }).toContain(`"conversation_id":"${conversationId}"`);
    } finally {
      response.destroy();
    }
  });

  it("answers uncompressed without gzip in Accept-Encoding, and refuses what the route refuses", async () => {
    const plain = await fetch(`${base}/api/calls/stream`, { headers: { authorization: `Bearer ${TEST_API_KEY}`, "accept-encoding": "identity" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    const reader = plain.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(": connected at change");
    await reader.cancel();

    expect((await fetch(`${base}/api/calls/stream`)).status).toBe(401);
    const badCursor = await fetch(`${base}/api/calls/stream`, { headers: { authorization: `Bearer ${TEST_API_KEY}`, "last-event-id": "soon" } });
    expect(badCursor.status).toBe(400);
    expect(await badCursor.json()).toMatchObject({ error: "Invalid cursor" });
  });
});
