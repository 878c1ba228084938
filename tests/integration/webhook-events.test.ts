import { apiRequest } from "@/tests/support/auth";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { GET as getRecordingRoute } from "@/app/api/calls/[id]/recording/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { POST } from "@/app/api/voiceagent-webhook/route";
import type { CallDetail, CallList } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import { recordingKey } from "@/lib/intake/receive";
import { getObjectStore } from "@/lib/storage/get-object-store";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";
import { webhookRequest } from "../support/webhook-request";
import { withWebhookSecret } from "../support/webhook-secret";

const SECRET = "wsec_events_secret";
let counter = 0;
const nextId = (label: string) => `conv_events_${label}_${++counter}`;

withWebhookSecret(SECRET);

async function post(body: unknown) {
  const response = await POST(webhookRequest(body, { secret: SECRET }), undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function detail(id: string): Promise<CallDetail> {
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${id}`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return (await response.json()) as CallDetail;
}

async function list(query: string): Promise<CallList> {
  const response = await listCallsRoute(apiRequest(`http://localhost/api/calls?${query}`), undefined);
  expect(response.status).toBe(200);
  return (await response.json()) as CallList;
}

function recording(id: string, headers: Record<string, string> = {}) {
  return getRecordingRoute(apiRequest(`http://localhost/api/calls/${id}/recording`, { headers }), {
    params: Promise.resolve({ id }),
  });
}

function withNumber(id: string, externalNumber: string | null, callerId?: string, eventTimestamp?: number) {
  const event = elevenLabsCallEvent(id, { eventTimestamp });
  const data = event.data as Record<string, unknown> & typeof event.data;
  if (externalNumber === null) (data.metadata as Record<string, unknown>).phone_call = null;
  else data.metadata.phone_call.external_number = externalNumber;
  if (callerId === undefined) delete (data.conversation_initiation_client_data.dynamic_variables as Record<string, unknown>).system__caller_id;
  else data.conversation_initiation_client_data.dynamic_variables.system__caller_id = callerId;
  return event;
}

describe("the caller's number", () => {
  it("is stored from external_number, shown in the detail and the listing, and filters the listing", async () => {
    const first = withNumber(nextId("caller-1"), "+1 (615) 555-0142", undefined, 1_767_229_200);
    const second = withNumber(nextId("caller-2"), "+16155550142", undefined, 1_767_232_800);
    expect((await post(first)).status).toBe(200);
    expect((await post(second)).status).toBe(200);

    const later = await detail(second.data.conversation_id);
    expect(later.caller_phone).toBe("+16155550142");
    expect(later.other_calls_from_number).toEqual([
      expect.objectContaining({ conversation_id: first.data.conversation_id, timestamp: 1_767_229_100, status: "active" }),
    ]);
    expect((await detail(first.data.conversation_id)).other_calls_from_number.map((call) => call.conversation_id)).toEqual([
      second.data.conversation_id,
    ]);

    for (const query of ["caller_phone=%2B16155550142", "caller_phone=+16155550142", "caller_phone=(615)%20555-0142"]) {
      const page = await list(query);
      expect(page.calls.map((call) => call.conversation_id)).toEqual([second.data.conversation_id, first.data.conversation_id]);
      expect(page.pagination.total).toBe(2);
      expect(page.filters).toMatchObject({ caller_phone: "+16155550142" });
    }
    const listed = (await list("simulation=false&limit=1000")).calls.find((call) => call.conversation_id === first.data.conversation_id);
    expect(listed?.caller_phone).toBe("+16155550142");
  });

  it("falls back to system__caller_id, and a web call has no number", async () => {
    const dynamic = withNumber(nextId("caller-id"), null, "0016155550777");
    const web = withNumber(nextId("web"), null);
    await post(dynamic);
    await post(web);
    expect((await detail(dynamic.data.conversation_id)).caller_phone).toBe("+16155550777");
    const webDetail = await detail(web.data.conversation_id);
    expect(webDetail.caller_phone).toBeUndefined();
    expect(webDetail.other_calls_from_number).toEqual([]);
  });

  it("keeps a number it cannot normalise as cleaned text", async () => {
    const event = withNumber(nextId("anonymous"), "anonymous");
    await post(event);
    expect((await detail(event.data.conversation_id)).caller_phone).toBe("anonymous");
  });
});

describe("call_initiation_failure", () => {
  function failure(id: string, reason: unknown, body: Record<string, unknown> = { To: "+16155550188", CallStatus: "busy" }) {
    return {
      type: "call_initiation_failure",
      event_timestamp: 1_767_240_000,
      data: { agent_id: "agent_911", conversation_id: id, failure_reason: reason, metadata: { type: "twilio", body } },
    };
  }

  it("is a failed call with its reason and number, in the failed listing and not among open calls", async () => {
    const event = failure(nextId("busy"), "busy");
    const id = event.data.conversation_id;
    expect(await post(event)).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });
    expect(await post(event)).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });

    const failed = await list("status=failed&limit=1000");
    expect(failed.calls.find((call) => call.conversation_id === id)).toMatchObject({
      status: "failed",
      failure_reason: "busy",
      caller_phone: "+16155550188",
      simulation: false,
      table_name: "calls",
    });
    expect((await list("status=active&limit=1000")).calls.some((call) => call.conversation_id === id)).toBe(false);
    const call = await detail(id);
    expect(call.history).toEqual([{ status: "failed", changed_at: expect.any(String), changed_by: "webhook" }]);
  });

  it.each([
    ["no-answer", "no-answer"],
    ["No Answer", "no-answer"],
    ["carrier exploded", "unknown"],
    [null, "unknown"],
  ])("reason %j is stored as %s", async (reason, expected) => {
    const event = failure(nextId("reason"), reason, { to_number: "sip:someone" });
    expect((await post(event)).status).toBe(200);
    expect(await detail(event.data.conversation_id)).toMatchObject({ failure_reason: expected, caller_phone: "sip:someone" });
  });
});

describe("post_call_audio", () => {
  const audioEvent = (id: string, audio: Buffer) => ({
    type: "post_call_audio",
    event_timestamp: 1_767_250_000,
    data: { agent_id: "agent_911", conversation_id: id, full_audio: audio.toString("base64") },
  });

  it("stores the decoded MP3, links it to the call, and serves it with range requests", async () => {
    const id = nextId("audio");
    const audio = randomBytes(10_000);
    await post(elevenLabsCallEvent(id));
    expect(await post(audioEvent(id, audio))).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });

    expect((await getObjectStore().get(recordingKey(id)))!.equals(audio)).toBe(true);
    expect((await detail(id)).recording).toEqual({ url: `/api/calls/${id}/recording`, content_type: "audio/mpeg", size_bytes: 10_000 });

    const whole = await recording(id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer()).equals(audio)).toBe(true);

    const part = await recording(id, { range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/10000");
    expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);

    const tail = await recording(id, { range: "bytes=-10" });
    expect(tail.headers.get("content-range")).toBe("bytes 9990-9999/10000");
    expect(Buffer.from(await tail.arrayBuffer()).equals(audio.subarray(9990))).toBe(true);

    const beyond = await recording(id, { range: "bytes=20000-" });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */10000");
  });

  it("keeps audio that arrives before its call, and links it when the call arrives", async () => {
    const id = nextId("audio-first");
    const audio = randomBytes(2_000);
    expect((await post(audioEvent(id, audio))).status).toBe(200);
    expect((await recording(id)).status).toBe(404);
    await post(specCallEvent(id));
    expect((await detail(id)).recording).toMatchObject({ size_bytes: 2_000 });
    expect(Buffer.from(await (await recording(id)).arrayBuffer()).equals(audio)).toBe(true);
  });

  it("a call without a recording has none", async () => {
    const id = nextId("silent");
    await post(specCallEvent(id));
    expect((await detail(id)).recording).toBeNull();
    expect((await recording(id)).status).toBe(404);
  });

  /** A body streamed in 1 MB chunks, as the platform sends it (chunked transfer encoding). */
  function streamedRequest(raw: Buffer, signature: string): Request {
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= raw.length) return controller.close();
        controller.enqueue(raw.subarray(offset, offset + 1024 * 1024));
        offset += 1024 * 1024;
      },
    });
    return apiRequest("http://localhost/api/voiceagent-webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "elevenlabs-signature": signature },
      body,
      duplex: "half",
    } as RequestInit);
  }

  it("takes a recording over the 5 MB JSON limit, streamed, and archives the raw payload byte for byte", async () => {
    const id = nextId("audio-large");
    const audio = randomBytes(9 * 1024 * 1024 + 7);
    const raw = Buffer.from(JSON.stringify(audioEvent(id, audio)));
    const response = await POST(streamedRequest(raw, signatureHeader(SECRET, raw)), undefined);
    expect(response.status).toBe(200);
    expect((await getObjectStore().get(recordingKey(id)))!.equals(audio)).toBe(true);
    expect((await getObjectStore().get(`events/post_call_audio/${id}_20260101_064640.json`))!.equals(raw)).toBe(true);
    const row = await (await getDb()).callRecording.findUnique({ where: { conversationId: id } });
    expect(Number(row!.sizeBytes)).toBe(audio.length);
  });

  it("stores nothing of a large recording whose signature does not match", async () => {
    const id = nextId("audio-forged");
    const raw = Buffer.from(JSON.stringify(audioEvent(id, randomBytes(6 * 1024 * 1024))));
    const response = await POST(streamedRequest(raw, signatureHeader("another secret", raw)), undefined);
    expect(response.status).toBe(401);
    expect(await getObjectStore().get(recordingKey(id))).toBeUndefined();
    expect(await (await getDb()).callRecording.findUnique({ where: { conversationId: id } })).toBeNull();
  });

  it.each([
    ["a call event", (id: string) => ({ ...specCallEvent(id), padding: "x".repeat(6 * 1024 * 1024) })],
    ["an audio event with two large strings", (id: string) => ({ ...audioEvent(id, randomBytes(4 * 1024 * 1024)), extra: "y".repeat(200_000) })],
  ])("refuses %s over 5 MB with 413 and stores nothing", async (_case, make) => {
    const id = nextId("large");
    const raw = Buffer.from(JSON.stringify(make(id)));
    const response = await POST(streamedRequest(raw, signatureHeader(SECRET, raw)), undefined);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error_code: "PAYLOAD_TOO_LARGE" });
    expect(await (await getDb()).call.findUnique({ where: { conversationId: id } })).toBeNull();
    expect(await getObjectStore().get(recordingKey(id))).toBeUndefined();
  });
});
