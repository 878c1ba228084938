import { apiRequest } from "@/tests/support/auth";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { resetHealthForTests } from "@/lib/health/check-readiness";
import { callPayloadKey } from "@/lib/intake/receive";
import { getObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { VercelBlobObjectStore } from "@/lib/storage/vercel-blob";
import { sendJson, startStandInServer, type StandInServer } from "../support/stand-in-server";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";

const BLOB_WEBHOOK_SECRET = "wsec_blob_store";

const TOKEN = "vercel_blob_rw_teststore_0123456789abcdef";

/**
 * A stand-in for the Vercel Blob API with the wire format @vercel/blob 2.8 speaks: PUT /?pathname=
 * stores, GET /?url= is head, GET /?prefix= lists (pages of `limit`), POST /delete deletes, and blobs
 * are served under /blobs/ to the token.
 */
function blobApi(objects: Map<string, { body: Buffer; contentType: string }>, state: { down: boolean }) {
  return async (request: StandInServer["requests"][number], response: import("node:http").ServerResponse) => {
    const authorised = request.headers.authorization === `Bearer ${TOKEN}`;
    if (!authorised) return sendJson(response, 403, { error: { code: "forbidden", message: "Access denied" } });
    if (state.down) return sendJson(response, 503, { error: { code: "service_unavailable", message: "down" } });
    const base = `http://${request.headers.host}`;
    const describe = (pathname: string) => ({
      url: `${base}/blobs/${pathname}`,
      downloadUrl: `${base}/blobs/${pathname}?download=1`,
      pathname,
      contentType: objects.get(pathname)!.contentType,
      contentDisposition: `inline; filename="${pathname.split("/").at(-1)}"`,
      cacheControl: "private, max-age=0",
      size: objects.get(pathname)!.body.length,
      uploadedAt: new Date().toISOString(),
      etag: `"${objects.get(pathname)!.body.length}"`,
    });
    const pathname = request.url.searchParams.get("pathname");
    if (request.method === "PUT" && request.url.pathname === "/" && pathname) {
      if (objects.has(pathname) && request.headers["x-allow-overwrite"] !== "1") {
        return sendJson(response, 400, { error: { code: "bad_request", message: "This blob already exists" } });
      }
      objects.set(pathname, { body: request.body, contentType: String(request.headers["x-content-type"]) });
      return sendJson(response, 200, describe(pathname));
    }
    if (request.method === "GET" && request.url.pathname === "/" && request.url.searchParams.has("url")) {
      const target = request.url.searchParams.get("url")!.replace(`${base}/blobs/`, "");
      if (!objects.has(target)) return sendJson(response, 404, { error: { code: "not_found", message: "Not found" } });
      return sendJson(response, 200, describe(target));
    }
    if (request.method === "GET" && request.url.pathname === "/" && request.url.searchParams.has("prefix")) {
      const prefix = request.url.searchParams.get("prefix")!;
      const limit = Number(request.url.searchParams.get("limit") ?? 1000);
      const from = Number(request.url.searchParams.get("cursor") ?? 0);
      const matching = [...objects.keys()].filter((key) => key.startsWith(prefix)).sort();
      const page = matching.slice(from, from + limit);
      const hasMore = from + limit < matching.length;
      return sendJson(response, 200, { blobs: page.map(describe), hasMore, ...(hasMore ? { cursor: String(from + limit) } : {}) });
    }
    if (request.method === "GET" && request.url.pathname.startsWith("/blobs/")) {
      const object = objects.get(decodeURIComponent(request.url.pathname.slice("/blobs/".length)));
      if (!object) return sendJson(response, 404, { error: { code: "not_found", message: "Not found" } });
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ""));
      if (range) {
        const [start, end] = [Number(range[1]), Number(range[2])];
        response
          .writeHead(206, { "content-type": object.contentType, "content-range": `bytes ${start}-${end}/${object.body.length}` })
          .end(object.body.subarray(start, end + 1));
        return;
      }
      response.writeHead(200, { "content-type": object.contentType }).end(object.body);
      return;
    }
    if (request.method === "POST" && request.url.pathname === "/delete") {
      for (const url of (JSON.parse(request.body.toString()) as { urls: string[] }).urls) {
        objects.delete(url.replace(`${base}/blobs/`, ""));
      }
      return sendJson(response, 200, {});
    }
    sendJson(response, 400, { error: { code: "bad_request", message: "unknown route" } });
  };
}

describe("Vercel Blob object store (real @vercel/blob client, local stand-in API)", () => {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const state = { down: false };
  let api: StandInServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    api = await startStandInServer(blobApi(objects, state));
    Object.assign(process.env, { BLOB_READ_WRITE_TOKEN: TOKEN, VERCEL_BLOB_API_URL: api.url, VERCEL_BLOB_RETRIES: "0" });
    // Signed deliveries: an unsigned one is archived apart (docs/webhook.md, "Unsigned deliveries").
    process.env.VOICEAGENT_WEBHOOK_SECRET = BLOB_WEBHOOK_SECRET;
    resetConfigForTests();
    setObjectStoreForTests(undefined);
  });

  afterAll(async () => {
    for (const key of ["BLOB_READ_WRITE_TOKEN", "VERCEL_BLOB_API_URL", "VERCEL_BLOB_RETRIES"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    resetConfigForTests();
    setObjectStoreForTests(undefined);
    await api.close();
  });

  beforeEach(() => {
    state.down = false;
    api.requests.length = 0;
  });

  it("is chosen when BLOB_READ_WRITE_TOKEN is set", () => {
    expect(getObjectStore().kind).toBe("vercel-blob");
  });

  it("writes the webhook payload privately under the documented key, without a random suffix", async () => {
    const event = specCallEvent("conv_blob_1");
    const raw = JSON.stringify(event);
    expect((await POST(webhookRequest(raw, { secret: BLOB_WEBHOOK_SECRET }), undefined)).status).toBe(200);
    const key = callPayloadKey("conv_blob_1", event.event_timestamp);
    expect(key).toBe("calls/conv_blob_1/conv_blob_1_20260101_000000.json");
    const put = api.requests.find((request) => request.method === "PUT")!;
    expect(put.url.searchParams.get("pathname")).toBe(key);
    expect(put.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      "x-vercel-blob-access": "private",
      "x-add-random-suffix": "0",
      "x-allow-overwrite": "1",
      "x-content-type": "application/json",
    });
    expect(objects.get(key)!.body.toString()).toBe(raw);
    expect((await getObjectStore().get(key))!.toString()).toBe(raw);
  });

  it("overwrites the same key on redelivery", async () => {
    const event = specCallEvent("conv_blob_2");
    await POST(webhookRequest(event, { secret: BLOB_WEBHOOK_SECRET }), undefined);
    const revised = { ...event, data: { ...event.data, agent_id: "agent_revised" } };
    expect((await POST(webhookRequest(revised, { secret: BLOB_WEBHOOK_SECRET }), undefined)).status).toBe(200);
    const keys = [...objects.keys()].filter((key) => key.startsWith("calls/conv_blob_2/"));
    expect(keys).toEqual(["calls/conv_blob_2/conv_blob_2_20260101_000000.json"]);
    expect(objects.get(keys[0])!.body.toString()).toBe(JSON.stringify(revised));
  });

  it("lists a folder's objects page by page, in key order, and deletes them", async () => {
    const store = getObjectStore();
    const keys = Array.from({ length: 1005 }, (_, i) => `pending/${String(i).padStart(15, "0")}_marker`);
    for (const key of keys) objects.set(key, { body: Buffer.from("{}"), contentType: "application/json" });
    objects.set("pending/deeper/not-listed", { body: Buffer.from("{}"), contentType: "application/json" });
    expect(await store.list("pending/")).toEqual(keys);
    await store.delete(keys[0]);
    expect(objects.has(keys[0])).toBe(false);
    expect((await store.list("pending/")).length).toBe(1004);
    for (const key of [...objects.keys()]) if (key.startsWith("pending/")) objects.delete(key);
  });

  it("stores a recording from a stream and reads a range of it back", async () => {
    const audio = Buffer.from(Array.from({ length: 50_000 }, (_, index) => index % 251));
    await getObjectStore().put("calls/conv_blob_3/conv_blob_3_recording.mp3", Readable.from([audio.subarray(0, 20_000), audio.subarray(20_000)]), "audio/mpeg");
    expect(objects.get("calls/conv_blob_3/conv_blob_3_recording.mp3")).toEqual({ body: audio, contentType: "audio/mpeg" });
    const range = await getObjectStore().readRange("calls/conv_blob_3/conv_blob_3_recording.mp3", { start: 100, end: 199 });
    expect(Buffer.from(await new Response(range).arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);
    expect(await getObjectStore().readRange("calls/none/none_recording.mp3", { start: 0, end: 1 })).toBeUndefined();
  });

  it("answers undefined for a key it does not hold", async () => {
    expect(await getObjectStore().get("calls/none/none_20260101_000000.json")).toBeUndefined();
  });

  it("checks availability with one metadata read, writing nothing", async () => {
    const before = objects.size;
    await getObjectStore().checkAvailable();
    expect(api.requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual(["GET /"]);
    expect(api.requests[0].url.searchParams.has("url")).toBe(true);
    expect(objects.size).toBe(before);
  });

  it("serves 1,000 health requests with one metadata read, one listing of pending payloads and no write", async () => {
    resetHealthForTests();
    const before = objects.size;
    for (let batch = 0; batch < 20; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => health(apiRequest("http://localhost/api/health"), undefined)),
      );
      expect(responses.every((response) => response.status === 200)).toBe(true);
    }
    // The storage check's head, and the backlog check's list of pending/ (docs/webhook.md).
    expect(api.requests.map((request) => [...request.url.searchParams.keys()][0]).sort()).toEqual(["limit", "url"]);
    expect(api.requests.map((request) => request.method)).toEqual(["GET", "GET"]);
    expect(objects.size).toBe(before);
  });

  it("reports the store unavailable when the API is down", async () => {
    state.down = true;
    await expect(getObjectStore().checkAvailable()).rejects.toThrow();
    expect(api.requests.every((request) => request.method === "GET")).toBe(true);
  });

  it("reports the store unavailable when it refuses the token", async () => {
    await expect(new VercelBlobObjectStore("vercel_blob_rw_otherstore_0").checkAvailable()).rejects.toThrow();
    expect(api.requests).toHaveLength(1);
  });

  it("turns an unavailable blob API into 500 STORAGE_ERROR and stores no record", async () => {
    state.down = true;
    const response = await POST(webhookRequest(specCallEvent("conv_blob_down"), { secret: BLOB_WEBHOOK_SECRET }), undefined);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error_code: "STORAGE_ERROR" });
    expect(await (await getDb()).call.findUnique({ where: { conversationId: "conv_blob_down" } })).toBeNull();
  });
});
