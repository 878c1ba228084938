import { apiRequest } from "@/tests/support/auth";
import { describe, expect, it } from "vitest";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import { callPayloadKey } from "@/lib/intake/receive";
import { getObjectStore } from "@/lib/storage/get-object-store";
import { TEXT_LIMITS } from "@/lib/calls/sanitise";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";
import { withWebhookSecret } from "../support/webhook-secret";

/**
 * The payloads that once answered 500 DATABASE_ERROR (PostgreSQL refusing the row) and the rules
 * that now store them (docs/webhook.md, "From payload to row").
 */

const SECRET = "wsec_hostile_secret";
let counter = 0;
const nextId = (label: string) => `conv_hostile_${label}_${++counter}`;

withWebhookSecret(SECRET);

type SpecEvent = ReturnType<typeof specCallEvent>;

async function post(body: unknown) {
  const response = await POST(webhookRequest(body, { secret: SECRET }), undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const findCall = async (conversationId: string) => (await getDb()).call.findUnique({ where: { conversationId } });

async function listedIds(): Promise<string[]> {
  const response = await listCallsRoute(apiRequest("http://localhost/api/calls?limit=1000&simulation=false"), undefined);
  const body = (await response.json()) as { calls: { conversation_id: string }[] };
  return body.calls.map((call) => call.conversation_id);
}

/** Posts twice (a redelivery must answer the same) and expects the call stored and listed. */
async function expectStored(event: SpecEvent) {
  const first = await post(event);
  const second = await post(event);
  expect(first).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });
  expect(second).toEqual(first);
  expect(await listedIds()).toContain(event.data.conversation_id);
  return (await findCall(event.data.conversation_id))!;
}

function withCollected(event: SpecEvent, key: string, value: unknown): SpecEvent {
  const results = event.data.analysis.data_collection_results as Record<string, unknown>;
  results[key] = { value, rationale: "hostile" };
  return event;
}

const NUL = "\u0000";

describe("the ten payloads that answered 500", () => {
  it("stores a NUL in agent_id, without the NUL", async () => {
    const event = specCallEvent(nextId("nul-agent"));
    event.data.agent_id = `agent${NUL}_911`;
    expect(await expectStored(event)).toMatchObject({ agentId: "agent_911" });
  });

  it("stores a NUL in transcript_summary", async () => {
    const event = specCallEvent(nextId("nul-summary"));
    event.data.analysis.transcript_summary = `Fire${NUL} next door.`;
    expect(await expectStored(event)).toMatchObject({ summary: "Fire next door." });
  });

  it("stores a NUL in emergency_type", async () => {
    const event = withCollected(specCallEvent(nextId("nul-type")), "emergency_type", `gas${NUL} leak`);
    expect(await expectStored(event)).toMatchObject({ emergencyType: "gas_leak" });
  });

  it("stores a NUL in location", async () => {
    const event = withCollected(specCallEvent(nextId("nul-location")), "location", `Music Row${NUL}, Nashville`);
    expect(await expectStored(event)).toMatchObject({ location: "Music Row, Nashville", locationSource: "gazetteer" });
  });

  it.each([1e308, 2_147_483_648])("call_duration_secs %d (no integer column holds it) falls back to the transcript span", async (duration) => {
    const event = specCallEvent(nextId("duration"));
    (event.data.metadata as { call_duration_secs: number }).call_duration_secs = duration;
    expect(await expectStored(event)).toMatchObject({ durationSecs: 75 });
  });

  it("no call_duration_secs and transcript times from -1e308 to 1e308: duration 0", async () => {
    const event = specCallEvent(nextId("span-huge"));
    delete (event.data as { metadata?: unknown }).metadata;
    event.data.transcript[0].timestamp = -1e308;
    event.data.transcript[2].timestamp = 1e308;
    expect(await expectStored(event)).toMatchObject({ durationSecs: 0 });
  });

  it("no call_duration_secs and a 3e9 s transcript span: duration 0", async () => {
    const event = specCallEvent(nextId("span-3e9"));
    delete (event.data as { metadata?: unknown }).metadata;
    event.data.transcript[0].timestamp = 0;
    event.data.transcript[2].timestamp = 3e9;
    expect(await expectStored(event)).toMatchObject({ durationSecs: 0 });
  });

  it("emergency_type of 1 MB is stored as a bounded identifier", async () => {
    const event = withCollected(specCallEvent(nextId("type-1mb")), "emergency_type", "x".repeat(1024 * 1024));
    const call = await expectStored(event);
    expect(call.emergencyType).toBe("x".repeat(TEXT_LIMITS.emergencyType));
  });

  it("emergency_type of 264 KB of words is stored as a bounded identifier", async () => {
    const words = "chemical spill near the river ".repeat(9_000);
    const event = withCollected(specCallEvent(nextId("type-words")), "emergency_type", words);
    const call = await expectStored(event);
    expect(call.emergencyType.length).toBeLessThanOrEqual(TEXT_LIMITS.emergencyType);
    expect(call.emergencyType.startsWith("chemical_spill_near_the_river_chemical")).toBe(true);
  });
});

describe("more hostile payloads", () => {
  it("a NUL and a lone surrogate in every text field", async () => {
    const id = nextId("every-text");
    const event = elevenLabsCallEvent(id);
    const dirty = (text: string) => `${text}${NUL}\uD800`;
    event.data.agent_id = dirty(event.data.agent_id);
    event.data.status = dirty(event.data.status);
    event.data.analysis.transcript_summary = dirty(event.data.analysis.transcript_summary);
    for (const item of event.data.transcript) item.message = dirty(item.message);
    const results = event.data.analysis.data_collection_results;
    results.emergency_type.value = dirty(results.emergency_type.value);
    results.severity.value = dirty(results.severity.value);
    results.location.value = dirty(results.location.value);
    event.data.metadata.phone_call.external_number = dirty(event.data.metadata.phone_call.external_number);
    const call = await expectStored(event as unknown as SpecEvent);
    expect(call).toMatchObject({
      agentId: "agent_01jz8x3y4v5w6x7y8z9a0b1c2d\uFFFD",
      summary: `${elevenLabsCallEvent(id).data.analysis.transcript_summary}\uFFFD`,
      location: "Music Row, Nashville\uFFFD",
      severity: "high",
    });
    // The archive keeps the payload exactly as it came.
    expect((await getObjectStore().get(call.payloadKey!))!.toString("utf8")).toBe(JSON.stringify(event));
  });

  it("1e308 in every numeric field: event_timestamp cannot be a time, so 400 and nothing stored", async () => {
    const id = nextId("every-number");
    const event = elevenLabsCallEvent(id);
    const huge = 1e308;
    Object.assign(event, { event_timestamp: huge });
    Object.assign(event.data.metadata, { start_time_unix_secs: huge, accepted_time_unix_secs: huge, call_duration_secs: huge, cost: huge });
    for (const item of event.data.transcript) item.time_in_call_secs = huge;
    const first = await post(event);
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ error_code: "MISSING_FIELDS" });
    expect(first.body.message).toContain("event_timestamp");
    expect(await post(event)).toEqual({ ...first, body: { ...first.body, timestamp: expect.any(String) } });
    expect(await findCall(id)).toBeNull();
  });

  it("1e308 in every numeric field but event_timestamp: stored with the documented fallbacks", async () => {
    const event = elevenLabsCallEvent(nextId("numbers"));
    const huge = 1e308;
    Object.assign(event.data.metadata, { start_time_unix_secs: huge, call_duration_secs: huge, cost: huge });
    for (const item of event.data.transcript) item.time_in_call_secs = huge;
    const results = event.data.analysis.data_collection_results as Record<string, unknown>;
    results.latitude = { value: huge };
    results.longitude = { value: huge };
    const call = await expectStored(event as unknown as SpecEvent);
    expect(call).toMatchObject({
      occurredAt: new Date(event.event_timestamp * 1000),
      durationSecs: 0,
      locationSource: "gazetteer",
    });
  });

  it("a body with invalid UTF-8 is stored, and archived byte for byte", async () => {
    const event = specCallEvent(nextId("utf8"));
    const [before, after] = JSON.stringify(event).split("Fire units dispatched.");
    const raw = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(after)]);
    const first = await post(raw);
    expect(first.status).toBe(200);
    expect(await post(raw)).toEqual(first);
    const call = (await findCall(event.data.conversation_id))!;
    expect(call.summary).toMatch(/^Caller reported a house fire next door\. \uFFFD+\(\uFFFD+$/);
    const archived = await getObjectStore().get(callPayloadKey(event.data.conversation_id, event.event_timestamp));
    expect(archived!.equals(raw)).toBe(true);
  });

  it("a location of 1 MB: the row keeps its first 1,000 characters", async () => {
    const location = `Music Row, Nashville ${"and further down the road ".repeat(41_000)}`;
    const event = withCollected(specCallEvent(nextId("location-1mb")), "location", location);
    const call = await expectStored(event);
    expect(call.location).toBe(location.slice(0, TEXT_LIMITS.location).trim());
  });

  it("a summary over its limit is cut in the row and whole in the archive", async () => {
    const event = specCallEvent(nextId("summary-long"));
    event.data.analysis.transcript_summary = "a".repeat(TEXT_LIMITS.summary) + "\uD83D\uDE92".repeat(10);
    const call = await expectStored(event);
    expect(call.summary).toBe("a".repeat(TEXT_LIMITS.summary));
    expect((await getObjectStore().get(call.payloadKey!))!.toString("utf8")).toBe(JSON.stringify(event));
  });

  it("wrong types in optional fields are no value; in required ones 400 and nothing stored", async () => {
    const lenient = specCallEvent(nextId("types-optional"));
    Object.assign(lenient.data.metadata, { call_duration_secs: "97" });
    Object.assign(lenient.data.transcript[0], { text: 42, timestamp: "yesterday" });
    expect(await expectStored(lenient)).toMatchObject({ durationSecs: 68 });

    const strict = specCallEvent(nextId("types-required"));
    Object.assign(strict.data, { agent_id: 7 });
    const answer = await post(strict);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("data.agent_id");
    expect(await findCall(strict.data.conversation_id)).toBeNull();
    expect(await getObjectStore().get(callPayloadKey(strict.data.conversation_id, strict.event_timestamp))).toBeUndefined();
  });
});
