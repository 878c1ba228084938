import { apiRequest } from "@/tests/support/auth";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { POST } from "@/app/api/voiceagent-webhook/route";
import type { CallDetail, CallList } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import { callPayloadKey, readArchived, recordArchived, recordingKey } from "@/lib/intake/receive";
import { arrivedSigned } from "@/lib/voice-platforms/payload-keys";
import { getObjectStore } from "@/lib/storage/get-object-store";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";
import { withWebhookSecret } from "../support/webhook-secret";

/**
 * docs/webhook.md, "Unsigned deliveries": with VOICEAGENT_WEBHOOK_SECRET set, a post without a
 * signature header may still create a call (the specification's rule) but never changes one
 * that exists, and every call says whether it arrived signed.
 */
const SECRET = "wsec_unsigned_secret";
let counter = 0;
const nextId = (label: string) => `conv_unsigned_${label}_${++counter}`;

withWebhookSecret(SECRET);

async function post(body: unknown, signed: boolean) {
  const response = await POST(webhookRequest(body, signed ? { secret: SECRET } : {}), undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function detail(id: string): Promise<CallDetail> {
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${id}`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return (await response.json()) as CallDetail;
}

async function listed(id: string) {
  const response = await listCallsRoute(apiRequest("http://localhost/api/calls?limit=1000&simulation=false"), undefined);
  return ((await response.json()) as CallList).calls.find((call) => call.conversation_id === id);
}

/** The same conversation, told otherwise: what an attacker would post. */
function rewritten(event: ReturnType<typeof elevenLabsCallEvent>) {
  const forged = structuredClone(event);
  forged.data.analysis.transcript_summary = "Nothing happened, cancel everything.";
  forged.data.analysis.data_collection_results.emergency_type.value = "noise complaint";
  forged.data.analysis.data_collection_results.severity.value = "moderate";
  forged.data.analysis.data_collection_results.location.value = "1 Infinite Loop, Cupertino";
  forged.data.metadata.phone_call.external_number = "+15555550100";
  forged.data.transcript = forged.data.transcript.slice(0, 1);
  return forged;
}

const OK = { status: 200, body: { status: "success", message: "Webhook received" } };

describe("an unsigned delivery", () => {
  it("creates a call marked unverified, in the detail and the listing; a signed one is verified", async () => {
    const unsigned = elevenLabsCallEvent(nextId("new"));
    const signed = elevenLabsCallEvent(nextId("signed"));
    expect(await post(unsigned, false)).toEqual(OK);
    expect(await post(signed, true)).toEqual(OK);
    expect((await detail(unsigned.data.conversation_id)).verified).toBe(false);
    expect((await listed(unsigned.data.conversation_id))?.verified).toBe(false);
    expect((await detail(signed.data.conversation_id)).verified).toBe(true);
    expect((await listed(signed.data.conversation_id))?.verified).toBe(true);
  });

  it("never changes a signed call: record, transcript, history, archived payload", async () => {
    const event = elevenLabsCallEvent(nextId("target"));
    const id = event.data.conversation_id;
    expect(await post(event, true)).toEqual(OK);
    const before = await detail(id);
    const archived = await getObjectStore().get(callPayloadKey(id, event.event_timestamp));

    // Answered as any redelivery is: the answer says nothing of whether the call exists.
    expect(await post(rewritten(event), false)).toEqual(OK);

    const after = await detail(id);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ verified: true, caller_phone: before.caller_phone, summary: before.summary });
    expect((await getObjectStore().get(callPayloadKey(id, event.event_timestamp)))!.equals(archived!)).toBe(true);
    const db = await getDb();
    expect(await db.auditEvent.count({ where: { targetId: id } })).toBe(0);
  });

  it("never changes an unsigned call either; a signed delivery of it then takes over and marks it verified", async () => {
    const event = elevenLabsCallEvent(nextId("squatted"));
    const id = event.data.conversation_id;
    expect(await post(rewritten(event), false)).toEqual(OK);
    const forged = await detail(id);
    expect(await post(rewritten(rewritten(event)), false)).toEqual(OK);
    expect(await detail(id)).toEqual(forged);

    expect(await post(event, true)).toEqual(OK);
    const real = await detail(id);
    expect(real).toMatchObject({ verified: true, summary: event.data.analysis.transcript_summary });
    expect(real.transcript).toHaveLength(event.data.transcript.length);
  });

  it("adds no failure reason to an existing call", async () => {
    const event = specCallEvent(nextId("failure"));
    const id = event.data.conversation_id;
    expect(await post(event, true)).toEqual(OK);
    const failure = {
      type: "call_initiation_failure",
      event_timestamp: 1_767_240_000,
      data: { agent_id: "agent_911", conversation_id: id, failure_reason: "busy", metadata: { type: "twilio", body: { To: "+16155550188" } } },
    };
    expect(await post(failure, false)).toEqual(OK);
    const after = await detail(id);
    expect(after.failure_reason).toBeUndefined();
    expect(after.caller_phone).toBeUndefined();
  });

  it("never replaces a call's recording", async () => {
    const id = nextId("audio");
    const audio = (bytes: Buffer) => ({
      type: "post_call_audio",
      event_timestamp: 1_767_250_000,
      data: { agent_id: "agent_911", conversation_id: id, full_audio: bytes.toString("base64") },
    });
    const real = randomBytes(4_000);
    expect(await post(elevenLabsCallEvent(id), true)).toEqual(OK);
    expect(await post(audio(real), true)).toEqual(OK);
    expect(await post(audio(randomBytes(2_000)), false)).toEqual(OK);
    expect((await getObjectStore().get(recordingKey(id)))!.equals(real)).toBe(true);
    expect((await detail(id)).recording).toMatchObject({ size_bytes: 4_000 });
  });

  it("read back from the archive (the backlog), is still unsigned and still changes nothing", async () => {
    const event = elevenLabsCallEvent(nextId("backlog"));
    const id = event.data.conversation_id;
    expect(await post(event, true)).toEqual(OK);
    const before = await detail(id);
    // What an unsigned delivery deferred while the database was down leaves for the reconciler: its key.
    expect(await post(rewritten(event), false)).toEqual(OK);
    const [unsignedKey] = await getObjectStore().list(`calls/${id}/unsigned/`);
    expect(arrivedSigned(unsignedKey)).toBe(false);
    expect(arrivedSigned(callPayloadKey(id, event.event_timestamp))).toBe(true);

    const raw = (await getObjectStore().get(unsignedKey))!;
    const [outcome] = await recordArchived([{ parsed: readArchived(unsignedKey, raw), payloadKey: unsignedKey }]);
    expect(outcome.status).toBe("fulfilled");
    expect(await detail(id)).toEqual(before);
  });
});
