import { apiRequest } from "@/tests/support/auth";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { closeDb, getDb } from "@/lib/db/client";
import { callPayloadKey } from "@/lib/intake/receive";
import { listPending } from "@/lib/intake/pending";
import { getObjectStore, type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { setEnv } from "../support/env";
import { type PostOptions, webhookRequest } from "../support/webhook-request";
import { sendJson, startStandInServer, type StandInServer } from "../support/stand-in-server";
import { scratchDirectory } from "../support/scratch-directory";

const SECRET = "wsec_test_secret";
const now = () => Math.floor(Date.now() / 1000);
let counter = 0;
const nextId = (label: string) => `conv_${label}_${++counter}`;

const ENV_KEYS = ["VOICEAGENT_WEBHOOK_SECRET", "VOICEAGENT_REQUIRE_SIGNATURE", "GEOCODER_URL", "GEOCODER_TIMEOUT_MS"];
const originalEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

async function post(body: unknown, options: PostOptions = {}) {
  const response = await POST(webhookRequest(body, options), undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function findCall(conversationId: string) {
  return (await getDb()).call.findUnique({ where: { conversationId }, include: { history: true } });
}

async function storedPayload(key: string): Promise<string | undefined> {
  return (await getObjectStore().get(key))?.toString("utf8");
}

function without(event: Record<string, unknown>, dottedPath: string): Record<string, unknown> {
  const copy = structuredClone(event);
  const parts = dottedPath.split(".");
  let target = copy as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) target = target[part] as Record<string, unknown>;
  delete target[parts.at(-1)!];
  return copy;
}

beforeEach(() => setEnv({ VOICEAGENT_WEBHOOK_SECRET: SECRET, VOICEAGENT_REQUIRE_SIGNATURE: undefined, GEOCODER_URL: undefined }));
afterEach(() => setObjectStoreForTests(undefined));
afterAll(() => setEnv(originalEnv));

describe("signature", () => {
  async function expectRejected(body: unknown, headers: Record<string, string>, message: RegExp) {
    const result = await post(body, { headers });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ status: "error", error_code: "INVALID_SIGNATURE" });
    expect(result.body.message).toMatch(message);
    const id = (body as ReturnType<typeof specCallEvent>).data.conversation_id;
    expect(await findCall(id)).toBeNull();
    expect(await storedPayload(callPayloadKey(id, 1_767_225_600))).toBeUndefined();
  }

  it("accepts the plain v0=<hex> form in ElevenLabs-Signature", async () => {
    const event = specCallEvent(nextId("plain"));
    expect((await post(event, { secret: SECRET })).status).toBe(200);
    expect(await findCall(event.data.conversation_id)).not.toBeNull();
  });

  it("accepts the v0=sha256=<hex> form in voiceagent-signature", async () => {
    const event = specCallEvent(nextId("sha256"));
    const raw = JSON.stringify(event);
    const header = signatureHeader(SECRET, raw).replace("v0=", "v0=sha256=");
    const result = await post(raw, { headers: { "voiceagent-signature": header } });
    expect(result).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });
  });

  it("accepts a header with several v0 parts when any one matches", async () => {
    const event = specCallEvent(nextId("rotated"));
    const raw = JSON.stringify(event);
    const valid = signatureHeader(SECRET, raw);
    const header = `${valid.split(",")[0]},v0=${"0".repeat(64)},${valid.split(",")[1]}`;
    expect((await post(raw, { headers: { "voiceagent-signature": header } })).status).toBe(200);
  });

  it("rejects a wrong signature", async () => {
    const event = specCallEvent(nextId("wrong"));
    const header = signatureHeader("another secret", JSON.stringify(event));
    await expectRejected(event, { "voiceagent-signature": header }, /does not match/);
  });

  it("rejects a signature made for another body", async () => {
    const event = specCallEvent(nextId("other-body"));
    const header = signatureHeader(SECRET, JSON.stringify({ ...event, event_timestamp: 1 }));
    await expectRejected(event, { "voiceagent-signature": header }, /does not match/);
  });

  it("rejects a timestamp older than 30 minutes and accepts one just inside", async () => {
    const old = specCallEvent(nextId("expired"));
    const header = signatureHeader(SECRET, JSON.stringify(old), now() - 31 * 60);
    await expectRejected(old, { "voiceagent-signature": header }, /older than 30 minutes/);
    expect((await post(specCallEvent(nextId("recent")), { secret: SECRET, signedAt: now() - 29 * 60 })).status).toBe(200);
  });

  it("rejects a timestamp more than 5 minutes ahead and accepts small clock skew", async () => {
    const ahead = specCallEvent(nextId("future"));
    const header = signatureHeader(SECRET, JSON.stringify(ahead), now() + 6 * 60);
    await expectRejected(ahead, { "voiceagent-signature": header }, /future/);
    expect((await post(specCallEvent(nextId("skew")), { secret: SECRET, signedAt: now() + 4 * 60 })).status).toBe(200);
  });

  it.each([
    ["no timestamp", (header: string) => header.split(",")[1]],
    ["no signature", (header: string) => header.split(",")[0]],
    ["an empty header", () => ""],
    ["a non-numeric timestamp", (header: string) => header.replace(/t=\d+/, "t=yesterday")],
  ])("rejects a header with %s", async (_case, mangle) => {
    const event = specCallEvent(nextId("parts"));
    await expectRejected(event, { "voiceagent-signature": mangle(signatureHeader(SECRET, JSON.stringify(event))) }, /./);
  });

  it("accepts an unsigned request unless VOICEAGENT_REQUIRE_SIGNATURE is true", async () => {
    expect((await post(specCallEvent(nextId("unsigned")))).status).toBe(200);
    setEnv({ VOICEAGENT_REQUIRE_SIGNATURE: "true" });
    await expectRejected(specCallEvent(nextId("unsigned-required")), {}, /required/);
    expect((await post(specCallEvent(nextId("signed-required")), { secret: SECRET })).status).toBe(200);
  });

  it("accepts a signed request unverified when no secret is configured", async () => {
    setEnv({ VOICEAGENT_WEBHOOK_SECRET: undefined });
    const event = specCallEvent(nextId("no-secret"));
    const result = await post(event, { headers: { "voiceagent-signature": "t=1,v0=abc" } });
    expect(result.status).toBe(200);
  });
});

describe("bad requests change nothing", () => {
  const required = [
    "type",
    "event_timestamp",
    "data",
    "data.conversation_id",
    "data.agent_id",
    "data.status",
    "data.transcript",
    "data.analysis",
    "data.analysis.transcript_summary",
    "data.analysis.call_successful",
    "data.analysis.data_collection_results",
  ];

  it.each(required)("answers 400 MISSING_FIELDS naming %s when it is missing", async (field) => {
    const event = specCallEvent(nextId("missing"));
    const result = await post(without(event, field), { secret: SECRET });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ status: "error", error_code: "MISSING_FIELDS" });
    expect(result.body.message).toMatch(new RegExp(`fields: (.*, )?${field.replaceAll(".", "\\.")}(,|$)`));
    expect(await findCall(event.data.conversation_id)).toBeNull();
    expect(await storedPayload(callPayloadKey(event.data.conversation_id, event.event_timestamp))).toBeUndefined();
  });

  it.each([
    ["event_timestamp", (event: ReturnType<typeof specCallEvent>) => ({ ...event, event_timestamp: "yesterday" })],
    ["data.transcript", (event: ReturnType<typeof specCallEvent>) => ({ ...event, data: { ...event.data, transcript: "none" } })],
    ["data.conversation_id", (event: ReturnType<typeof specCallEvent>) => ({ ...event, data: { ...event.data, conversation_id: "../../etc" } })],
    [
      "data.analysis.call_successful",
      (event: ReturnType<typeof specCallEvent>) => ({
        ...event,
        data: { ...event.data, analysis: { ...event.data.analysis, call_successful: "maybe" } },
      }),
    ],
  ])("answers 400 MISSING_FIELDS naming %s when it has the wrong type", async (field, mangle) => {
    const result = await post(mangle(specCallEvent(nextId("invalid"))), { secret: SECRET });
    expect(result.status).toBe(400);
    expect(result.body.error_code).toBe("MISSING_FIELDS");
    expect(result.body.message).toContain(field);
  });

  it("answers 400 MISSING_FIELDS for a JSON body that is not an object", async () => {
    const result = await post("[1,2,3]", { secret: SECRET });
    expect(result.status).toBe(400);
    expect(result.body.message).toBe("Missing or invalid fields: type, event_timestamp, data");
  });

  it("answers 400 INVALID_JSON for malformed JSON", async () => {
    const result = await post('{"type": "post_call_transcription",', { secret: SECRET });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ status: "error", message: "Request body is not valid JSON", error_code: "INVALID_JSON" });
    expect(typeof result.body.timestamp).toBe("string");
  });

  it("answers 415 for a body that is not JSON", async () => {
    const result = await post(specCallEvent(nextId("form")), { secret: SECRET, headers: { "content-type": "text/plain" } });
    expect(result.status).toBe(415);
  });

  it("answers 413 PAYLOAD_TOO_LARGE for a streamed body over 5 MB, without reading it whole", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 50) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = apiRequest("http://localhost/api/voiceagent-webhook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await POST(request, undefined);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: "error", error_code: "PAYLOAD_TOO_LARGE" });
    expect(sent).toBeLessThan(10);
  });

  it("takes a body of almost 5 MB", async () => {
    const event = specCallEvent(nextId("large"));
    const padded = { ...event, data: { ...event.data, padding: "x".repeat(5 * 1024 * 1024 - 2_000) } };
    expect((await post(padded, { secret: SECRET })).status).toBe(200);
  });
});

describe("records", () => {
  it("stores the documented form as a webhook record with its creation in the history", async () => {
    const event = specCallEvent(nextId("spec"));
    const raw = JSON.stringify(event);
    expect((await post(raw, { secret: SECRET })).status).toBe(200);
    const call = await findCall(event.data.conversation_id);
    expect(call).toMatchObject({
      agentId: "agent_911_dispatch",
      occurredAt: new Date(event.event_timestamp * 1000),
      summary: event.data.analysis.transcript_summary,
      callSuccessful: true,
      durationSecs: 97,
      transcriptLength: 3,
      emergencyType: "structure_fire",
      severity: "critical",
      location: "1200 Sunset Blvd, Pacific Palisades",
      latitude: 34.0481,
      longitude: -118.5265,
      locationSource: "gazetteer",
      status: "active",
      simulation: false,
      scenario: null,
      scenarioName: null,
      tableName: "calls",
      payloadKey: `calls/${event.data.conversation_id}/${event.data.conversation_id}_20260101_000000.json`,
    });
    expect(call!.history.map(({ fromStatus, status, changedBy }) => ({ fromStatus, status, changedBy }))).toEqual([
      { fromStatus: null, status: "active", changedBy: "webhook" },
    ]);
    expect(await storedPayload(call!.payloadKey!)).toBe(raw);
  });

  it("stores ElevenLabs' real post-call form", async () => {
    const event = elevenLabsCallEvent(nextId("elevenlabs"));
    const raw = JSON.stringify(event);
    expect((await post(raw, { secret: SECRET })).status).toBe(200);
    const call = await findCall(event.data.conversation_id);
    expect(call).toMatchObject({
      occurredAt: new Date(1_767_229_100 * 1000),
      callSuccessful: true,
      durationSecs: 48,
      transcriptLength: 3,
      emergencyType: "power_lines_down",
      severity: "high",
      status: "active",
      latitude: 36.149,
      longitude: -86.793,
    });
    // Extra fields are kept in the archive, byte for byte.
    expect(await storedPayload(call!.payloadKey!)).toBe(raw);
  });

  it("derives the duration from transcript times when metadata has none", async () => {
    const spec = specCallEvent(nextId("span"));
    await post(without(spec, "data.metadata"), { secret: SECRET });
    expect((await findCall(spec.data.conversation_id))!.durationSecs).toBe(75);

    const real = elevenLabsCallEvent(nextId("span-real"));
    await post(without(real, "data.metadata.call_duration_secs"), { secret: SECRET });
    expect((await findCall(real.data.conversation_id))!.durationSecs).toBe(41);
  });

  it.each([
    ["failed", "failure", "failed", false],
    ["done", "unknown", "active", false],
    ["completed", false, "active", false],
  ])("status %s with call_successful %s gives status %s", async (status, successful, expected, callSuccessful) => {
    const event = specCallEvent(nextId("status"));
    const body = { ...event, data: { ...event.data, status, analysis: { ...event.data.analysis, call_successful: successful } } };
    expect((await post(body, { secret: SECRET })).status).toBe(200);
    const call = await findCall(event.data.conversation_id);
    expect(call).toMatchObject({ status: expected, callSuccessful });
    expect(call!.history[0]).toMatchObject({ fromStatus: null, status: expected, changedBy: "webhook" });
  });

  it("keeps coordinates the agent collected", async () => {
    const event = specCallEvent(nextId("reported"));
    event.data.analysis.data_collection_results = {
      ...event.data.analysis.data_collection_results,
      latitude: { value: 34.05, rationale: "GPS" },
      longitude: { value: "-118.53", rationale: "GPS" },
    } as typeof event.data.analysis.data_collection_results;
    await post(event, { secret: SECRET });
    expect(await findCall(event.data.conversation_id)).toMatchObject({ latitude: 34.05, longitude: -118.53, locationSource: "platform", locationPrecision: "address_point" });
  });

  it("stores a call whose agent collected no type, severity or location", async () => {
    const event = specCallEvent(nextId("uncollected"));
    event.data.analysis.data_collection_results = {
      emergency_type: { value: null, rationale: "Not mentioned" },
      severity: { value: null, rationale: "Not mentioned" },
    } as unknown as typeof event.data.analysis.data_collection_results;
    expect((await post(event, { secret: SECRET })).status).toBe(200);
    expect(await findCall(event.data.conversation_id)).toMatchObject({
      emergencyType: "unknown",
      severity: "high",
      location: "",
      latitude: null,
      locationSource: null,
    });
  });

  it("updates the one record on redelivery, to the same payload key, and keeps a dispatcher's status", async () => {
    const event = specCallEvent(nextId("redelivered"));
    const id = event.data.conversation_id;
    expect((await post(event, { secret: SECRET })).status).toBe(200);
    const first = (await findCall(id))!;
    const db = await getDb();
    await db.call.update({
      where: { id: first.id },
      data: { status: "dispatched", history: { create: { fromStatus: "active", status: "dispatched", changedBy: "api" } } },
    });
    const revised = structuredClone(event);
    revised.data.analysis.transcript_summary = "Revised summary.";
    expect((await post(revised, { secret: SECRET })).status).toBe(200);
    expect(await db.call.count({ where: { conversationId: id } })).toBe(1);
    const second = (await findCall(id))!;
    expect(second).toMatchObject({ id: first.id, summary: "Revised summary.", status: "dispatched", payloadKey: first.payloadKey });
    expect(second.history).toHaveLength(2);
    expect(await storedPayload(first.payloadKey!)).toBe(JSON.stringify(revised));
  });

  it("keeps one record when deliveries of a new call race", async () => {
    const event = specCallEvent(nextId("race"));
    const results = await Promise.all(Array.from({ length: 6 }, () => post(event, { secret: SECRET })));
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const db = await getDb();
    expect(await db.call.count({ where: { conversationId: event.data.conversation_id } })).toBe(1);
    expect(await db.callStatusChange.count({ where: { call: { conversationId: event.data.conversation_id } } })).toBe(1);
  });

  it("answers unknown event types with 200 Event ignored, archives them and stores no record", async () => {
    const id = nextId("rated");
    const event = { type: "conversation_rated", event_timestamp: 1_767_225_600, data: { conversation_id: id, stars: 5 } };
    const result = await post(event, { secret: SECRET });
    expect(result).toEqual({ status: 200, body: { status: "success", message: "Event ignored" } });
    expect(await findCall(id)).toBeNull();
    expect(await storedPayload(`events/conversation_rated/${id}_20260101_000000.json`)).toBe(JSON.stringify(event));
  });
});

describe("failures answer 500 and lose nothing once redelivered", () => {
  it("stores the payload before the record", async () => {
    const event = specCallEvent(nextId("order"));
    const seenAtPut: Array<unknown> = [];
    const local = getObjectStore();
    const observing: ObjectStore = {
      kind: "observing",
      get: (key) => local.get(key),
      list: (folder) => local.list(folder),
      delete: (key) => local.delete(key),
      readRange: (key, range) => local.readRange(key, range),
      checkAvailable: () => local.checkAvailable(),
      async put(key, body, type) {
        seenAtPut.push(await findCall(event.data.conversation_id));
        await local.put(key, body, type);
      },
    };
    setObjectStoreForTests(observing);
    expect((await post(event, { secret: SECRET })).status).toBe(200);
    expect(seenAtPut).toEqual([null]);
    expect(await findCall(event.data.conversation_id)).not.toBeNull();
  });

  it("storage down: 500 STORAGE_ERROR and no record; the redelivery stores both", async () => {
    const directory = await scratchDirectory("broken-store");
    const blocker = path.join(directory, "file");
    await writeFile(blocker, "a file where the store wants a directory");
    setObjectStoreForTests(new LocalObjectStore(blocker));
    const event = specCallEvent(nextId("storage-down"));
    const failed = await post(event, { secret: SECRET });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ status: "error", error_code: "STORAGE_ERROR", message: "The payload could not be stored" });
    expect(JSON.stringify(failed.body)).not.toMatch(/ENOTDIR|EEXIST|mayday-broken/);
    expect(await findCall(event.data.conversation_id)).toBeNull();

    setObjectStoreForTests(undefined);
    expect((await post(event, { secret: SECRET })).status).toBe(200);
    const call = await findCall(event.data.conversation_id);
    expect(await storedPayload(call!.payloadKey!)).toBe(JSON.stringify(event));
  });

  it("database down: 200 with the payload archived and marked pending (tests/integration/webhook-database-down.test.ts)", async () => {
    const event = specCallEvent(nextId("db-down"));
    const databaseUrl = process.env.DATABASE_URL;
    await closeDb();
    setEnv({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/unreachable" });
    let answer;
    try {
      answer = await post(event, { secret: SECRET });
    } finally {
      await closeDb();
      setEnv({ DATABASE_URL: databaseUrl });
    }
    expect(answer).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });
    const key = callPayloadKey(event.data.conversation_id, event.event_timestamp);
    expect(await storedPayload(key)).toBe(JSON.stringify(event));
    expect(await findCall(event.data.conversation_id)).toBeNull();
    const pending = await listPending(getObjectStore());
    expect(pending.map((marker) => marker.payloadKey)).toContain(key);

    // A redelivery once the database is back stores the record as well; the marker's later pass is a no-op.
    expect((await post(event, { secret: SECRET })).status).toBe(200);
    expect(await findCall(event.data.conversation_id)).toMatchObject({ payloadKey: key, locationSource: "gazetteer" });
  });

  describe("geocoder", () => {
    let geocoder: StandInServer;
    let mode: "down" | "up" | "empty" | "slow" = "up";

    beforeEach(async () => {
      mode = "up";
      geocoder = await startStandInServer(async (request, response) => {
        if (mode === "down") return sendJson(response, 503, { error: "maintenance" });
        if (mode === "empty") return sendJson(response, 200, []);
        if (mode === "slow") await new Promise((resolve) => setTimeout(resolve, 1_000));
        const q = request.url.searchParams.get("q") ?? "";
        sendJson(response, 200, [{ lat: "39.7817", lon: "-89.6501", display_name: `${q} (stand-in)`, place_rank: 30 }]);
      });
      setEnv({ GEOCODER_URL: geocoder.url, GEOCODER_TIMEOUT_MS: "300" });
    });
    afterEach(async () => {
      await geocoder.close();
      setEnv({ GEOCODER_URL: undefined, GEOCODER_TIMEOUT_MS: undefined });
    });

    it("asks the hosted geocoder first and caches its answer", async () => {
      const first = specCallEvent(nextId("hosted"), { location: "742 Evergreen Terrace" });
      await post(first, { secret: SECRET });
      expect(await findCall(first.data.conversation_id)).toMatchObject({ latitude: 39.7817, longitude: -89.6501, locationSource: "nominatim" });
      const searches = geocoder.requests.filter((request) => request.url.pathname === "/search");
      expect(searches).toHaveLength(1);
      expect(searches[0].url.searchParams.get("q")).toBe("742 Evergreen Terrace");
      expect(searches[0].url.searchParams.get("format")).toBe("jsonv2");
      await post(specCallEvent(nextId("hosted-again"), { location: "742  evergreen terrace" }), { secret: SECRET });
      expect(geocoder.requests).toHaveLength(1);
    });

    it("down, place unknown to the gazetteer: 500 GEOCODING_ERROR, record kept; the redelivery geocodes it", async () => {
      mode = "down";
      const event = specCallEvent(nextId("geo-down"), { location: "742 Evergreen Terrace" });
      const failed = await post(event, { secret: SECRET });
      expect(failed.status).toBe(500);
      expect(failed.body).toMatchObject({ status: "error", error_code: "GEOCODING_ERROR" });
      expect(await findCall(event.data.conversation_id)).toMatchObject({ latitude: null, longitude: null, locationSource: null });

      mode = "up";
      expect((await post(event, { secret: SECRET })).status).toBe(200);
      expect(await findCall(event.data.conversation_id)).toMatchObject({ latitude: 39.7817, locationSource: "nominatim" });
    });

    it("down or too slow, place known to the gazetteer: the gazetteer answers", async () => {
      for (const failure of ["down", "slow"] as const) {
        mode = failure;
        const event = specCallEvent(nextId(`geo-${failure}`), { location: "Marina District, San Francisco" });
        expect((await post(event, { secret: SECRET })).status).toBe(200);
        expect(await findCall(event.data.conversation_id)).toMatchObject({
          latitude: 37.8037,
          longitude: -122.4368,
          locationSource: "gazetteer",
        });
      }
    });

    it("no match anywhere: 200 with null coordinates, record kept", async () => {
      mode = "empty";
      const event = specCallEvent(nextId("nowhere"), { location: "behind the old barn past the creek" });
      expect((await post(event, { secret: SECRET })).status).toBe(200);
      expect(await findCall(event.data.conversation_id)).toMatchObject({
        location: "behind the old barn past the creek",
        latitude: null,
        longitude: null,
        locationSource: null,
      });
    });
  });
});
