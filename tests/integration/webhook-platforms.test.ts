import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute, PATCH as patchCallRoute } from "@/app/api/calls/[id]/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { platformAdapters } from "@/lib/voice-platforms/adapters";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import { type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { retellCallEvent } from "@/lib/voice-platforms/retell/sample-events";
import { vapiEndOfCallReport } from "@/lib/voice-platforms/vapi/sample-events";
import { apiRequest } from "@/tests/support/auth";
import { MANY_REQUESTS_TIMEOUT_MS } from "../support/timeouts";
import { webhookPostAt } from "@/tests/support/platform-routes";

const retellPost = webhookPostAt("retell");
const vapiPost = webhookPostAt("vapi");

/**
 * Vapi's and Retell's post-call webhooks through the one intake (issue 26): events built from the
 * documented shapes, then varied as the platforms may send them (optional fields missing, unknown
 * fields added, unicode, huge transcripts, numbers as strings), are each stored once with their raw
 * bytes archived exactly; forged, stale and other-body signatures are all refused with 401 and
 * leave nothing behind; Retell's call_ended and call_analyzed make one record with the analysis,
 * in any order and however often redelivered.
 */

const VAPI_SECRET = "vapi_test_secret_0123456789";
const RETELL_KEY = "key_retell_test_0123456789abcdef";
const runId = Date.now().toString(36);
let counter = 0;
const nextId = (label: string) => `${label}-${runId}-${++counter}`;

let storeDir: string;
let store: ObjectStore;

beforeAll(async () => {
  process.env.VAPI_WEBHOOK_SECRET = VAPI_SECRET;
  process.env.RETELL_API_KEY = RETELL_KEY;
  resetConfigForTests();
  storeDir = await mkdtemp(path.join(tmpdir(), "mayday-platforms-"));
  store = new LocalObjectStore(storeDir);
  setObjectStoreForTests(store);
});

afterAll(async () => {
  delete process.env.VAPI_WEBHOOK_SECRET;
  delete process.env.RETELL_API_KEY;
  resetConfigForTests();
  setObjectStoreForTests(undefined);
  await rm(storeDir, { recursive: true, force: true });
});

type Platform = "vapi" | "retell";

function request(platform: Platform, raw: string | Buffer, headers: Record<string, string>): Request {
  return new Request(`http://localhost/api/voiceagent-webhook/${platform}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw as BodyInit,
  });
}

/** Signed as the platform signs: Vapi with its HMAC credential, Retell with x-retell-signature. */
function signed(platform: Platform, raw: string | Buffer, atMs = Date.now()): Record<string, string> {
  return platform === "vapi"
    ? vapiHmacHeaders(VAPI_SECRET, raw, atMs)
    : { "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw, atMs) };
}

async function post(platform: Platform, raw: string | Buffer, headers = signed(platform, raw)) {
  const handler = platform === "vapi" ? vapiPost : retellPost;
  const response = await handler(request(platform, raw, headers), undefined);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function storedCalls(conversationId: string) {
  const db = await getDb();
  const calls = await db.call.findMany({ where: { conversationId } });
  const creations = await db.callStatusChange.count({ where: { fromStatus: null, call: { conversationId } } });
  return { calls, creations };
}

/** Where the adapter archives these bytes. */
const archiveKey = (platform: Platform, raw: string) =>
  platformAdapters[platform].read(JSON.parse(raw), Buffer.from(raw)).payloadKey;

/**
 * Whether these exact bytes are archived in the folder the adapter names for them. The folder, not
 * the key: an event without a time of its own is named by the second it arrived, which may have
 * passed by the time the test asks.
 */
async function isArchived(platform: Platform, raw: string): Promise<boolean> {
  const key = archiveKey(platform, raw);
  const folder = key.slice(0, key.lastIndexOf("/"));
  for (const stored of await store.list(folder)) {
    if ((await store.get(stored))?.equals(Buffer.from(raw))) return true;
  }
  return false;
}

// ---- Generators: the documented shapes, varied --------------------------------------------------

const jsonValue = fc.jsonValue({ maxDepth: 2 });
const unicodeText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("Ñandú 🔥 calle 5ª", "火事です、渋谷区", "حريق في الشارع", "\u0000nul\u0000", "\ud800 lone surrogate"),
);
const HUGE_TRANSCRIPT = "Caller: there is smoke everywhere, please hurry. ".repeat(40_000); // ~2 MB
const transcriptText = fc.oneof({ weight: 19, arbitrary: unicodeText }, { weight: 1, arbitrary: fc.constant(HUGE_TRANSCRIPT) });
/** Fields the platforms may add later: never one of the documented names (a random "call" would replace the call). */
const unknownFields = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).map((key) => `x_${key}`),
  jsonValue,
  { maxKeys: 4 },
);

/** Removes `paths` (dotted) from `target`, when present. */
function without(target: Record<string, unknown>, paths: string[]): void {
  for (const dotted of paths) {
    const parts = dotted.split(".");
    let node: unknown = target;
    for (const part of parts.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[part];
    if (node !== null && typeof node === "object") delete (node as Record<string, unknown>)[parts.at(-1)!];
  }
}

const VAPI_OPTIONAL = [
  "message.timestamp", "message.endedReason", "message.call.assistantId", "message.call.customer", "message.customer",
  "message.startedAt", "message.endedAt", "message.durationSeconds", "message.analysis", "message.analysis.summary",
  "message.analysis.structuredData", "message.analysis.structuredData.location", "message.analysis.successEvaluation",
  "message.artifact", "message.artifact.messages", "message.artifact.recordingUrl", "message.artifact.recording",
];

const vapiEvent = fc
  .record({
    remove: fc.subarray(VAPI_OPTIONAL),
    extra: unknownFields,
    extraInCall: unknownFields,
    summary: unicodeText,
    location: unicodeText,
    transcript: transcriptText,
    numbersAsStrings: fc.boolean(),
    endedReason: fc.constantFrom("customer-ended-call", "assistant-ended-call", "customer-busy", "customer-did-not-answer", "twilio-failed-to-connect-call", "silence-timed-out"),
  })
  .map((variant) => {
    const id = nextId("vapi");
    const report = vapiEndOfCallReport(id, { location: variant.location, endedReason: variant.endedReason }) as unknown as {
      message: Record<string, unknown> & { call: Record<string, unknown>; analysis: Record<string, unknown>; artifact: Record<string, unknown> };
    };
    report.message.analysis.summary = variant.summary;
    report.message.artifact.transcript = variant.transcript;
    Object.assign(report.message, variant.extra);
    Object.assign(report.message.call, variant.extraInCall);
    report.message.type = "end-of-call-report";
    report.message.call.id = id;
    if (variant.numbersAsStrings) {
      report.message.durationSeconds = String(report.message.durationSeconds);
      report.message.timestamp = String(report.message.timestamp);
    }
    without(report as unknown as Record<string, unknown>, variant.remove);
    return { id: `vapi:${id}`, raw: JSON.stringify(report) };
  });

const RETELL_OPTIONAL = [
  "call.call_type", "call.from_number", "call.to_number", "call.direction", "call.agent_id", "call.call_status",
  "call.start_timestamp", "call.end_timestamp", "call.duration_ms", "call.disconnection_reason", "call.transcript",
  "call.transcript_object", "call.recording_url", "call.call_analysis.call_summary",
  "call.call_analysis.custom_analysis_data", "call.call_analysis.custom_analysis_data.location",
];

const retellEvent = fc
  .record({
    event: fc.constantFrom("call_ended" as const, "call_analyzed" as const),
    remove: fc.subarray(RETELL_OPTIONAL),
    extra: unknownFields,
    extraInCall: unknownFields,
    summary: unicodeText,
    location: unicodeText,
    transcript: transcriptText,
    numbersAsStrings: fc.boolean(),
    reason: fc.constantFrom("user_hangup", "agent_hangup", "dial_busy", "dial_no_answer", "dial_failed", "inactivity"),
  })
  .map((variant) => {
    const id = nextId("retell");
    const event = retellCallEvent(variant.event, id, { location: variant.location, disconnectionReason: variant.reason }) as {
      event: string;
      call: Record<string, unknown> & { call_analysis?: Record<string, unknown> };
    } & Record<string, unknown>;
    if (event.call.call_analysis) event.call.call_analysis.call_summary = variant.summary;
    event.call.transcript = variant.transcript;
    Object.assign(event, variant.extra);
    Object.assign(event.call, variant.extraInCall);
    event.event = variant.event;
    event.call.call_id = id;
    if (variant.numbersAsStrings) {
      for (const field of ["start_timestamp", "end_timestamp", "duration_ms"]) event.call[field] = String(event.call[field]);
    }
    without(event, variant.remove);
    return { id: `retell:${id}`, raw: JSON.stringify(event) };
  });

const RUNS = 500;

describe.each([
  { platform: "vapi" as const, events: vapiEvent },
  { platform: "retell" as const, events: retellEvent },
])("$platform webhook", ({ platform, events }) => {
  it(`stores each of ${RUNS} documented-shape events once, its raw bytes archived exactly, never a 5xx`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(events, async ({ id, raw }) => {
        const answer = await post(platform, raw);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer).toEqual({ status: 200, body: { status: "success", message: "Webhook received" } });
        const { calls, creations } = await storedCalls(id);
        expect(calls).toHaveLength(1);
        expect(creations).toBe(1);
        expect(calls[0].platform).toBe(platform);
        expect(await isArchived(platform, raw)).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect([...statuses.keys()]).toEqual([200]);
  }, MANY_REQUESTS_TIMEOUT_MS);

  it("refuses forged, stale and other-body signatures with 401, storing and archiving nothing", async () => {
    const minute = 60_000;
    const forgery = fc.oneof(
      fc.record({ kind: fc.constant("forged" as const), key: fc.string({ minLength: 1, maxLength: 40 }) }),
      fc.record({ kind: fc.constant("stale" as const), offset: fc.oneof(fc.integer({ min: 6 * minute, max: 48 * 60 * minute }), fc.integer({ min: -48 * 60 * minute, max: -6 * minute })) }),
      fc.record({ kind: fc.constant("other-body" as const), other: fc.string({ minLength: 1, maxLength: 40 }) }),
    );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(events, forgery, async ({ id, raw }, attack) => {
        let headers: Record<string, string>;
        if (attack.kind === "forged") {
          const key = attack.key === VAPI_SECRET || attack.key === RETELL_KEY ? `${attack.key}x` : attack.key;
          headers =
            platform === "vapi" ? vapiHmacHeaders(key, raw) : { "x-retell-signature": retellSignatureHeader(key, raw) };
        } else if (attack.kind === "stale") {
          headers = signed(platform, raw, Date.now() + attack.offset);
        } else {
          headers = signed(platform, `${raw}${attack.other}`);
        }
        const answer = await post(platform, raw, headers);
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ status: "error", error_code: "INVALID_SIGNATURE" });
        expect((await storedCalls(id)).calls).toHaveLength(0);
        expect(await isArchived(platform, raw)).toBe(false);
        refused++;
      }),
      { numRuns: 300 },
    );
    expect(refused).toBe(300);
  }, MANY_REQUESTS_TIMEOUT_MS);

  it("refuses a request with no credential at all", async () => {
    const { raw } = fc.sample(events, 1)[0];
    expect((await post(platform, raw, {})).status).toBe(401);
  });
});

describe("vapi specifics", () => {
  it("accepts the secret itself (x-vapi-secret or a Bearer token) and refuses another", async () => {
    for (const headers of [{ "x-vapi-secret": VAPI_SECRET }, { authorization: `Bearer ${VAPI_SECRET}` }] as Record<string, string>[]) {
      const id = nextId("vapi-secret");
      expect((await post("vapi", JSON.stringify(vapiEndOfCallReport(id)), headers)).status).toBe(200);
      expect((await storedCalls(`vapi:${id}`)).calls).toHaveLength(1);
    }
    const id = nextId("vapi-wrong");
    expect((await post("vapi", JSON.stringify(vapiEndOfCallReport(id)), { "x-vapi-secret": "wrong" })).status).toBe(401);
    expect((await storedCalls(`vapi:${id}`)).calls).toHaveLength(0);
  });

  it("a report redelivered three times is one record, mapped from the documented fields", async () => {
    const id = nextId("vapi-redelivered");
    const raw = JSON.stringify(vapiEndOfCallReport(id));
    for (let attempt = 0; attempt < 3; attempt++) expect((await post("vapi", raw)).status).toBe(200);
    const { calls, creations } = await storedCalls(`vapi:${id}`);
    expect(creations).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      platform: "vapi",
      agentId: "asst_911_overflow",
      emergencyType: "structure_fire",
      severity: "critical",
      location: "1200 Sunset Blvd, Pacific Palisades",
      callerPhone: "+16155550142",
      durationSecs: 97,
      // The two turns spoken: the system prompt is not one.
      transcriptLength: 2,
      callSuccessful: true,
      status: "active",
      recordingUrl: `https://storage.vapi.ai/${id}-mono.wav`,
      summary: "Caller reported a house fire next door. Fire units dispatched.",
    });
  });

  it("a call that never connected is a failed call with its reason", async () => {
    const id = nextId("vapi-busy");
    // Nobody spoke: no analysis, no messages.
    const report: { message: Record<string, unknown> } = vapiEndOfCallReport(id, { endedReason: "customer-busy" });
    delete report.message.analysis;
    delete report.message.artifact;
    expect((await post("vapi", JSON.stringify(report))).status).toBe(200);
    const [call] = (await storedCalls(`vapi:${id}`)).calls;
    expect(call).toMatchObject({ status: "failed", failureReason: "busy", summary: expect.stringContaining("customer-busy") });
  });

  it("acknowledges other message types without a record (status-update and final transcripts are live events: live-calls.test.ts)", async () => {
    const raw = JSON.stringify({ message: { type: "speech-update", status: "started", role: "user", call: { id: nextId("vapi-speech") } } });
    expect(await post("vapi", raw)).toEqual({ status: 200, body: { status: "success", message: "Event ignored" } });
    expect(await isArchived("vapi", raw)).toBe(true);
  });

  it("400 MISSING_FIELDS for a report without a call id", async () => {
    const raw = JSON.stringify({ message: { type: "end-of-call-report", call: {} } });
    expect(await post("vapi", raw)).toMatchObject({ status: 400, body: { error_code: "MISSING_FIELDS" } });
  });
});

describe("retell specifics", () => {
  it("call_ended and call_analyzed, in any order and each delivered three times, make one record with the analysis", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(["call_ended", "call_ended", "call_ended", "call_analyzed", "call_analyzed", "call_analyzed"] as const, {
          minLength: 6,
          maxLength: 6,
        }),
        async (order) => {
          const id = nextId("retell-order");
          for (const event of order) {
            expect((await post("retell", JSON.stringify(retellCallEvent(event, id)))).status).toBe(200);
          }
          const { calls, creations } = await storedCalls(`retell:${id}`);
          expect(creations).toBe(1);
          expect(calls).toHaveLength(1);
          expect(calls[0]).toMatchObject({
            platform: "retell",
            summary: "Caller reported a house fire next door. Fire units dispatched.",
            emergencyType: "structure_fire",
            severity: "critical",
            location: "1200 Sunset Blvd, Pacific Palisades",
            callSuccessful: true,
            callerPhone: "+16155550177",
            durationSecs: 97,
            transcriptLength: 2,
            awaitingAnalysis: false,
            recordingUrl: `https://dxc03zgurdly9.cloudfront.net/${id}/recording.wav`,
          });
          expect(calls[0].latitude).not.toBeNull();
          // Both events' bytes are kept, each under its own key.
          for (const event of ["call_ended", "call_analyzed"] as const) {
            const raw = JSON.stringify(retellCallEvent(event, id));
            expect(await isArchived("retell", raw)).toBe(true);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("a dispatcher's correction outlives the platform's later events, its analysis kept as the original", async () => {
    const id = nextId("retell-corrected");
    expect((await post("retell", JSON.stringify(retellCallEvent("call_analyzed", id)))).status).toBe(200);
    const conversationId = `retell:${id}`;
    const patched = await patchCallRoute(
      apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ severity: "moderate" }),
      }),
      { params: Promise.resolve({ id: conversationId }) },
    );
    expect(patched.status).toBe(200);
    for (const event of ["call_ended", "call_analyzed", "call_ended"] as const) {
      expect((await post("retell", JSON.stringify(retellCallEvent(event, id)))).status).toBe(200);
    }
    const [call] = (await storedCalls(conversationId)).calls;
    expect(call).toMatchObject({ severity: "moderate", originalSeverity: "critical", emergencyType: "structure_fire", originalEmergencyType: null });
  });

  it("call_ended alone is stored and waits for its analysis", async () => {
    const id = nextId("retell-ended");
    expect((await post("retell", JSON.stringify(retellCallEvent("call_ended", id)))).status).toBe(200);
    const [call] = (await storedCalls(`retell:${id}`)).calls;
    expect(call).toMatchObject({ awaitingAnalysis: true, emergencyType: "unknown", summary: "", status: "active" });
  });

  it("a call that never connected is a failed call with its reason", async () => {
    const id = nextId("retell-no-answer");
    expect((await post("retell", JSON.stringify(retellCallEvent("call_ended", id, { disconnectionReason: "dial_no_answer" })))).status).toBe(200);
    const [call] = (await storedCalls(`retell:${id}`)).calls;
    expect(call).toMatchObject({ status: "failed", failureReason: "no-answer", summary: expect.stringContaining("dial_no_answer") });
  });

  it("acknowledges other events without a record (call_started and transcript_updated are live events: live-calls.test.ts)", async () => {
    const id = nextId("retell-transfer");
    const raw = JSON.stringify({ ...retellCallEvent("call_started", id), event: "transfer_started" });
    expect(await post("retell", raw)).toEqual({ status: 200, body: { status: "success", message: "Event ignored" } });
    expect((await storedCalls(`retell:${id}`)).calls).toHaveLength(0);
  });
});

describe("the calls API", () => {
  it("keeps each platform's conversation turn by turn, the system prompt left out, and finds the caller's words", async () => {
    const vapiId = nextId("vapi-turns");
    const retellId = nextId("retell-turns");
    expect((await post("vapi", JSON.stringify(vapiEndOfCallReport(vapiId)))).status).toBe(200);
    expect((await post("retell", JSON.stringify(retellCallEvent("call_analyzed", retellId)))).status).toBe(200);
    const turns = async (conversationId: string) => {
      const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}`), {
        params: Promise.resolve({ id: conversationId }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { transcript: { speaker: string; time_in_call_secs: number | null; text: string }[] }).transcript;
    };
    expect(await turns(`vapi:${vapiId}`)).toEqual([
      { speaker: "agent", time_in_call_secs: 1, text: "911, what is your emergency?" },
      { speaker: "user", time_in_call_secs: 4, text: "There is a fire on our street." },
    ]);
    expect((await turns(`retell:${retellId}`)).map(({ speaker, text }) => [speaker, text])).toEqual([
      ["agent", "911, what is your emergency?"],
      ["user", "There is a fire on our street."],
    ]);
    const found = await listCallsRoute(apiRequest(`http://localhost/api/calls?q=${encodeURIComponent("fire on our street")}&platform=vapi&limit=1000`), undefined);
    const ids = ((await found.json()) as { calls: { conversation_id: string }[] }).calls.map((call) => call.conversation_id);
    expect(ids).toContain(`vapi:${vapiId}`);
  });

  it("shows and filters the platform, and the recording link", async () => {
    const vapiId = nextId("vapi-listed");
    const retellId = nextId("retell-listed");
    expect((await post("vapi", JSON.stringify(vapiEndOfCallReport(vapiId)))).status).toBe(200);
    expect((await post("retell", JSON.stringify(retellCallEvent("call_analyzed", retellId)))).status).toBe(200);

    const listed = async (query: string) => {
      const response = await listCallsRoute(apiRequest(`http://localhost/api/calls?limit=1000&${query}`), undefined);
      expect(response.status).toBe(200);
      return (await response.json()) as { calls: { conversation_id: string; platform: string }[]; filters: Record<string, unknown> };
    };
    const vapiCalls = await listed("platform=vapi");
    expect(vapiCalls.filters.platform).toBe("vapi");
    expect(vapiCalls.calls.every((call) => call.platform === "vapi")).toBe(true);
    expect(vapiCalls.calls.map((call) => call.conversation_id)).toContain(`vapi:${vapiId}`);
    expect(vapiCalls.calls.map((call) => call.conversation_id)).not.toContain(`retell:${retellId}`);

    const bad = await listCallsRoute(apiRequest("http://localhost/api/calls?platform=twilio"), undefined);
    expect(bad.status).toBe(400);

    const detail = await getCallRoute(apiRequest(`http://localhost/api/calls/${encodeURIComponent(`retell:${retellId}`)}`), {
      params: Promise.resolve({ id: `retell:${retellId}` }),
    });
    expect(await detail.json()).toMatchObject({
      conversation_id: `retell:${retellId}`,
      platform: "retell",
      recording_url: `https://dxc03zgurdly9.cloudfront.net/${retellId}/recording.wav`,
    });
  });
});
