import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { GET as getRecordingRoute } from "@/app/api/calls/[id]/recording/route";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import type { CallDetail, CallList } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import { recordingKey } from "@/lib/intake/receive";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import { archiveRecordingsNow, startRecordingArchiver, stopRecordingArchiver } from "@/lib/intake/recording-archiver";
import { archiveDueRecordings } from "@/lib/intake/recording-queue";
import { getObjectStore } from "@/lib/storage/get-object-store";
import { retellCallEvent } from "@/lib/voice-platforms/retell/sample-events";
import { vapiEndOfCallReport } from "@/lib/voice-platforms/vapi/sample-events";
import { apiRequest } from "../support/auth";
import { setEnv } from "../support/env";
import { secondInstance } from "../support/exercise-clock";
import { startStandInServer, type StandInServer } from "../support/stand-in-server";
import { webhookPostAt } from "@/tests/support/platform-routes";

const retellPost = webhookPostAt("retell");
const vapiPost = webhookPostAt("vapi");

/**
 * Vapi's and Retell's recording links copied into object storage (issue 26, docs/webhook.md
 * "Recordings"): calls posted through the real endpoints, their links pointing at a local stand-in
 * for the platform's storage; the fetch happens after the webhook's answer, is retried after a
 * failure once due, gives up on what cannot succeed, and is done once however many instances sweep.
 */

const VAPI_SECRET = "vapi_recording_secret_0123456789";
const RETELL_KEY = "key_retell_recording_0123456789ab";
/** Failures are due again an hour later: a test makes a link due by moving its time, not by waiting. */
const RETRY = { firstMs: 3_600_000, maxMs: 3_600_000, attempts: 3 };
const runId = Date.now().toString(36);
let counter = 0;
const nextId = (label: string) => `${label}-${runId}-${++counter}`;

/** Posts a signed event through the platform's endpoint; answers the call's conversation_id. */
async function post(platform: "vapi" | "retell", id: string, event: unknown): Promise<string> {
  const raw = JSON.stringify(event);
  const headers = platform === "vapi" ? vapiHmacHeaders(VAPI_SECRET, raw) : { "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) };
  const route = platform === "vapi" ? vapiPost : retellPost;
  const response = await route(
    new Request(`http://localhost/api/voiceagent-webhook/${platform}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: raw }),
    undefined,
  );
  expect(response.status).toBe(200);
  return `${platform}:${id}`;
}

const postVapi = (id: string, recordingUrl: string) => post("vapi", id, vapiEndOfCallReport(id, { recordingUrl }));
const postRetell = (event: "call_ended" | "call_analyzed", id: string, recordingUrl: string) =>
  post("retell", id, retellCallEvent(event, id, { recordingUrl }));

async function detail(id: string): Promise<CallDetail> {
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${encodeURIComponent(id)}`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return (await response.json()) as CallDetail;
}

const recording = (id: string, headers: Record<string, string> = {}) =>
  getRecordingRoute(apiRequest(`http://localhost/api/calls/${encodeURIComponent(id)}/recording`, { headers }), {
    params: Promise.resolve({ id }),
  });

async function fetchRow(conversationId: string) {
  return (await getDb()).recordingFetch.findUnique({ where: { conversationId } });
}

async function linked(conversationId: string) {
  return (await getDb()).callRecording.findUnique({ where: { conversationId } });
}

/** What a minute's wait would do: the link's next attempt falls due now. */
async function makeDue(conversationId: string): Promise<void> {
  await (await getDb()).$executeRaw`UPDATE recording_fetches SET next_attempt_at = now() WHERE conversation_id = ${conversationId}`;
}

/** Requests the stand-in received for `path`. */
const requestsFor = (server: StandInServer, path: string) => server.requests.filter((request) => request.url.pathname === path).length;

/** A body that never ends: written for as long as the reader reads. */
function endless(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "audio/wav" });
  const chunk = Buffer.alloc(64 * 1024, 1);
  const pump = () => {
    let room = true;
    while (room && !response.destroyed) room = response.write(chunk);
    if (!response.destroyed) response.once("drain", pump);
  };
  pump();
}

const AUDIO = { wav: randomBytes(300_000), mp3: randomBytes(120_000) };
/** Opened by a test: the stand-in holds /held/ answers until then. */
let releaseHeld: () => void = () => {};
let held = new Promise<void>((resolve) => (releaseHeld = resolve));

let storage: StandInServer;

beforeAll(async () => {
  setEnv({ VAPI_WEBHOOK_SECRET: VAPI_SECRET, RETELL_API_KEY: RETELL_KEY, RECORDING_ALLOW_PRIVATE_SOURCES: "true" });
  storage = await startStandInServer(async (request, response) => {
    const path = request.url.pathname;
    if (path.startsWith("/held/")) await held;
    if (path.startsWith("/gone/")) response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    else if (path.startsWith("/redirect/")) response.writeHead(302, { location: `/moved/${path.slice("/redirect/".length)}.wav` }).end();
    else if (path.startsWith("/loop/")) response.writeHead(307, { location: path }).end();
    else if (path.startsWith("/declared-large/")) response.writeHead(200, { "content-type": "audio/wav", "content-length": "5000" }).end(Buffer.alloc(5000));
    else if (path.startsWith("/endless/")) endless(response);
    else if (path.startsWith("/stalled/")) response.writeHead(200, { "content-type": "audio/wav" }).write(Buffer.alloc(1000));
    else if (path.startsWith("/page/")) response.writeHead(200, { "content-type": "text/html" }).end("<html>sign in</html>");
    else if (path.endsWith(".wav")) response.writeHead(200, { "content-type": "audio/wav" }).end(AUDIO.wav);
    else if (path.endsWith("/recording")) response.writeHead(200, { "content-type": "audio/mpeg" }).end(AUDIO.mp3);
    else response.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
});

afterAll(async () => {
  await stopRecordingArchiver();
  await storage.close();
  setEnv({ VAPI_WEBHOOK_SECRET: undefined, RETELL_API_KEY: undefined, RECORDING_ALLOW_PRIVATE_SOURCES: undefined, RECORDING_MAX_BYTES: undefined });
});

describe("with the archiver running", () => {
  beforeAll(() => startRecordingArchiver({ retry: RETRY, sweepMs: 3_600_000 }));
  afterAll(() => stopRecordingArchiver());
  beforeEach(() => setEnv({ RECORDING_ALLOW_PRIVATE_SOURCES: "true", RECORDING_MAX_BYTES: undefined }));

  it("archives a Vapi call's recording byte for byte, as served (audio/wav), and serves it like an ElevenLabs recording", async () => {
    const id = nextId("vapi-wav");
    const conversationId = await postVapi(id, `${storage.url}/vapi/${id}-mono.wav`);
    await archiveRecordingsNow();

    const key = recordingKey(conversationId, "wav");
    expect(key).toBe(`calls/${conversationId}/${conversationId}_recording.wav`);
    expect((await getObjectStore().get(key))!.equals(AUDIO.wav)).toBe(true);
    expect(await linked(conversationId)).toMatchObject({ objectKey: key, contentType: "audio/wav", sizeBytes: BigInt(AUDIO.wav.length) });
    expect(await fetchRow(conversationId)).toMatchObject({ state: "archived", attempts: 1, nextAttemptAt: null, lastError: null });

    // The call's JSON says the audio is archived, and keeps the platform's link.
    expect(await detail(conversationId)).toMatchObject({
      recording_url: `${storage.url}/vapi/${id}-mono.wav`,
      recording: { url: `/api/calls/${encodeURIComponent(conversationId)}/recording`, content_type: "audio/wav", size_bytes: AUDIO.wav.length },
    });
    const whole = await recording(conversationId);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(Buffer.from(await whole.arrayBuffer()).equals(AUDIO.wav)).toBe(true);
    const part = await recording(conversationId, { range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(AUDIO.wav.subarray(100, 200))).toBe(true);
  });

  it("archives a Retell call's recording once for call_ended and call_analyzed, with the type it was served as (audio/mpeg)", async () => {
    const id = nextId("retell-mp3");
    const link = `${storage.url}/retell/${id}/recording`;
    const conversationId = await postRetell("call_ended", id, link);
    await postRetell("call_analyzed", id, link);
    await archiveRecordingsNow();

    const key = recordingKey(conversationId, "mp3");
    expect((await getObjectStore().get(key))!.equals(AUDIO.mp3)).toBe(true);
    expect(await linked(conversationId)).toMatchObject({ objectKey: key, contentType: "audio/mpeg", sizeBytes: BigInt(AUDIO.mp3.length) });
    expect(requestsFor(storage, `/retell/${id}/recording`)).toBe(1);
    expect((await detail(conversationId)).recording).toMatchObject({ content_type: "audio/mpeg", size_bytes: AUDIO.mp3.length });
  });

  it("answers the webhook before the fetch: the platform's storage holds its answer until the webhook has answered", async () => {
    const id = nextId("vapi-held");
    // Were the webhook to wait for the fetch, it would never answer: the audio comes after.
    const conversationId = await postVapi(id, `${storage.url}/held/${id}.wav`);
    expect((await detail(conversationId)).recording).toBeNull();
    releaseHeld();
    await archiveRecordingsNow();
    expect((await detail(conversationId)).recording).toMatchObject({ content_type: "audio/wav", size_bytes: AUDIO.wav.length });
    held = new Promise<void>((resolve) => (releaseHeld = resolve));
  });

  it("follows a redirect, and gives up on one that goes round in circles", async () => {
    const id = nextId("vapi-redirect");
    const moved = await postVapi(id, `${storage.url}/redirect/${id}`);
    const looping = await postVapi(nextId("vapi-loop"), `${storage.url}/loop/${id}`);
    await archiveRecordingsNow();
    expect(await linked(moved)).toMatchObject({ objectKey: recordingKey(moved, "wav"), contentType: "audio/wav" });
    expect(requestsFor(storage, `/loop/${id}`)).toBe(4);
    expect(await linked(looping)).toBeNull();
    expect(await fetchRow(looping)).toMatchObject({ state: "pending", attempts: 1, lastError: "more than 3 redirects" });
  });

  it("fetches a link whose storage was down once it is up again and the retry falls due, not before", async () => {
    const down = await startStandInServer((_, response) => void response.writeHead(200, { "content-type": "audio/wav" }).end(AUDIO.wav));
    const base = down.url;
    await down.close();
    const id = nextId("vapi-down");
    const conversationId = await postVapi(id, `${base}/audio/${id}.wav`);
    await archiveRecordingsNow();
    const failed = await fetchRow(conversationId);
    expect(failed).toMatchObject({ state: "pending", attempts: 1, lastError: expect.stringContaining("ECONNREFUSED") });
    expect(failed!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await linked(conversationId)).toBeNull();

    const up = await startStandInServer((_, response) => void response.writeHead(200, { "content-type": "audio/wav" }).end(AUDIO.wav), Number(new URL(base).port));
    try {
      await archiveRecordingsNow();
      expect(up.requests).toHaveLength(0);
      await makeDue(conversationId);
      await archiveRecordingsNow();
      expect(up.requests).toHaveLength(1);
      expect(await fetchRow(conversationId)).toMatchObject({ state: "archived", attempts: 2, lastError: null });
      expect((await getObjectStore().get(recordingKey(conversationId, "wav")))!.equals(AUDIO.wav)).toBe(true);
    } finally {
      await up.close();
    }
  });

  it("refuses links to loopback addresses, by address and by name, without a request, while private sources are not allowed", async () => {
    setEnv({ RECORDING_ALLOW_PRIVATE_SOURCES: "false" });
    const byAddress = await postVapi(nextId("vapi-private"), `${storage.url}/private/a.wav`);
    const byName = await postRetell("call_analyzed", nextId("retell-private"), `${storage.url.replace("127.0.0.1", "localhost")}/private/b.wav`);
    await archiveRecordingsNow();
    expect(requestsFor(storage, "/private/a.wav") + requestsFor(storage, "/private/b.wav")).toBe(0);
    for (const conversationId of [byAddress, byName]) {
      expect(await fetchRow(conversationId)).toMatchObject({
        state: "given_up",
        attempts: 1,
        nextAttemptAt: null,
        lastError: expect.stringContaining("a private, loopback or link-local address"),
      });
      expect(await linked(conversationId)).toBeNull();
      expect((await detail(conversationId)).recording).toBeNull();
    }
  });

  it("cuts off a recording larger than RECORDING_MAX_BYTES, declared or streamed without end, and links nothing", async () => {
    setEnv({ RECORDING_MAX_BYTES: "4096" });
    const declared = await postVapi(nextId("vapi-declared"), `${storage.url}/declared-large/a.wav`);
    // Were reading not to stop at the limit, this fetch would never end.
    const streamed = await postVapi(nextId("vapi-endless"), `${storage.url}/endless/b.wav`);
    await archiveRecordingsNow();
    expect(await fetchRow(declared)).toMatchObject({ state: "given_up", attempts: 1, lastError: "larger than 4096 bytes (Content-Length 5000)" });
    expect(await fetchRow(streamed)).toMatchObject({ state: "given_up", attempts: 1, lastError: "larger than 4096 bytes" });
    for (const conversationId of [declared, streamed]) {
      expect(await linked(conversationId)).toBeNull();
      expect(await getObjectStore().get(recordingKey(conversationId, "wav"))).toBeUndefined();
    }
  });

  it("cuts off a fetch that does not finish within RECORDING_FETCH_TIMEOUT_MS, to try again later", async () => {
    setEnv({ RECORDING_FETCH_TIMEOUT_MS: "1000" });
    try {
      const conversationId = await postVapi(nextId("vapi-stalled"), `${storage.url}/stalled/${runId}.wav`);
      await archiveRecordingsNow();
      expect(await fetchRow(conversationId)).toMatchObject({ state: "pending", attempts: 1, lastError: "no complete answer within 1000 ms" });
      expect(await linked(conversationId)).toBeNull();
      expect(await getObjectStore().get(recordingKey(conversationId, "wav"))).toBeUndefined();
    } finally {
      setEnv({ RECORDING_FETCH_TIMEOUT_MS: undefined });
    }
  });

  it("counts a 404 or a page that is not audio as an attempt, keeps the call listed and served without audio, and gives up after the last attempt", async () => {
    const missing = await postVapi(nextId("vapi-404"), `${storage.url}/gone/${runId}.wav`);
    const page = await postRetell("call_analyzed", nextId("retell-page"), `${storage.url}/page/${runId}`);
    await archiveRecordingsNow();
    expect(await fetchRow(missing)).toMatchObject({ state: "pending", attempts: 1, lastError: "HTTP 404" });
    expect(await fetchRow(page)).toMatchObject({ state: "pending", attempts: 1, lastError: "not audio: text/html" });

    const call = await detail(missing);
    expect(call).toMatchObject({ recording: null, recording_url: `${storage.url}/gone/${runId}.wav` });
    const listed = (await (await listCallsRoute(apiRequest("http://localhost/api/calls?platform=vapi&limit=1000"), undefined)).json()) as CallList;
    expect(listed.calls.map((entry) => entry.conversation_id)).toContain(missing);
    expect((await recording(missing)).status).toBe(404);

    for (let attempt = 2; attempt <= RETRY.attempts; attempt++) {
      await makeDue(missing);
      await archiveRecordingsNow();
    }
    expect(await fetchRow(missing)).toMatchObject({ state: "given_up", attempts: RETRY.attempts, nextAttemptAt: null, lastError: "HTTP 404" });
    expect(requestsFor(storage, `/gone/${runId}.wav`)).toBe(RETRY.attempts);
    // Given up: swept no more.
    await makeDue(missing);
    await archiveRecordingsNow();
    expect(requestsFor(storage, `/gone/${runId}.wav`)).toBe(RETRY.attempts);
  });
});

describe("without an archiver in the process that stored the call", () => {
  it("keeps the link queued, and an archiver started later fetches it", async () => {
    const conversationId = await postVapi(nextId("vapi-later"), `${storage.url}/later/${runId}.wav`);
    expect(requestsFor(storage, `/later/${runId}.wav`)).toBe(0);
    expect(await fetchRow(conversationId)).toMatchObject({ state: "pending", attempts: 0 });

    startRecordingArchiver({ retry: RETRY, sweepMs: 3_600_000 });
    try {
      await archiveRecordingsNow();
    } finally {
      await stopRecordingArchiver();
    }
    expect(await linked(conversationId)).toMatchObject({ contentType: "audio/wav", sizeBytes: BigInt(AUDIO.wav.length) });
  });

  // A second instance needs connections of its own: PostgreSQL only (PGlite is one in-process connection).
  it.runIf(inject("testDatabase").kind === "postgresql")("fetches each link once when two instances sweep at the same time", async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, index) => postVapi(nextId(`vapi-pair-${index}`), `${storage.url}/held/pair-${runId}-${index}.wav`)));
    const other = await secondInstance("recording-archiver-other");
    try {
      // Both instances claim while the storage holds every answer: then none is free to claim twice.
      const sweeps = Promise.all([archiveDueRecordings(await getDb(), RETRY), archiveDueRecordings(other.db, RETRY)]);
      while (storage.requests.filter((request) => request.url.pathname.startsWith(`/held/pair-${runId}-`)).length < ids.length) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      releaseHeld();
      expect((await sweeps).sort()).toEqual([2, 4]);
    } finally {
      await other.close();
      held = new Promise<void>((resolve) => (releaseHeld = resolve));
    }
    for (let index = 0; index < ids.length; index++) {
      expect(requestsFor(storage, `/held/pair-${runId}-${index}.wav`)).toBe(1);
      expect(await linked(ids[index])).toMatchObject({ contentType: "audio/wav" });
    }
  });
});
