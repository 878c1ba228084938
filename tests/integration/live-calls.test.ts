import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as instructPost } from "@/app/api/calls/[id]/instruction/route";
import { GET as getCallRoute, PATCH as patchCallRoute } from "@/app/api/calls/[id]/route";
import { POST as elevenLabsToolPost } from "@/app/api/live-calls/elevenlabs/[tool]/route";
import { GET as toolsGet } from "@/app/api/live-calls/tools/route";
import { POST as webhookPost } from "@/app/api/voiceagent-webhook/route";
import { endIdleLiveCalls } from "@/lib/calls/write/live";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import type { LiveStatus } from "@/lib/on-the-line/incident-status";
import { VAPI_TOOL_CALLS_MAX } from "@/lib/voice-platforms/vapi/schema";
import { type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { normaliseEmergencyType, normaliseSeverity } from "@/lib/calls/handed-over";
import { elevenLabsCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { retellCallEvent } from "@/lib/voice-platforms/retell/sample-events";
import { vapiEndOfCallReport } from "@/lib/voice-platforms/vapi/sample-events";
import { apiRequest } from "@/tests/support/auth";
import { webhookRequest } from "@/tests/support/webhook-request";
import { liveToolsPostAt, webhookPostAt } from "@/tests/support/platform-routes";

const retellToolPost = liveToolsPostAt("retell");
const vapiToolPost = liveToolsPostAt("vapi");
const retellPost = webhookPostAt("retell");
const vapiPost = webhookPostAt("vapi");

/**
 * Live calls (issue 38) through the app's handlers, a stand-in platform posting as each platform
 * does: the agent's tools and the post-call event of one call, in any order and repeated, make
 * one call record in one incident that ends with the analysis and keeps a dispatcher's
 * correction; every live endpoint refuses forged, stale and missing credentials with 401 and
 * stores nothing; a dispatcher's instruction is what the agent's next incident_status answers.
 */

const VAPI_SECRET = "vapi_live_secret_0123456789";
const RETELL_KEY = "key_retell_live_0123456789abcdef";
const ELEVENLABS_WEBHOOK_SECRET = "wsec_live_0123456789abcdef";
const TOOL_SECRET = "tool_secret_live_0123456789";
const SAVED = ["VAPI_WEBHOOK_SECRET", "RETELL_API_KEY", "VOICEAGENT_WEBHOOK_SECRET", "ELEVENLABS_TOOL_SECRET"] as const;
const saved = Object.fromEntries(SAVED.map((name) => [name, process.env[name]]));

const runId = Date.now().toString(36);
let counter = 0;
const nextId = (label: string) => `${label}_${runId}_${++counter}`;

let storeDir: string;
let store: ObjectStore;

beforeAll(async () => {
  process.env.VAPI_WEBHOOK_SECRET = VAPI_SECRET;
  process.env.RETELL_API_KEY = RETELL_KEY;
  process.env.VOICEAGENT_WEBHOOK_SECRET = ELEVENLABS_WEBHOOK_SECRET;
  process.env.ELEVENLABS_TOOL_SECRET = TOOL_SECRET;
  resetConfigForTests();
  storeDir = await mkdtemp(path.join(tmpdir(), "mayday-live-"));
  store = new LocalObjectStore(storeDir);
  setObjectStoreForTests(store);
});

afterAll(async () => {
  for (const name of SAVED) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfigForTests();
  setObjectStoreForTests(undefined);
  await rm(storeDir, { recursive: true, force: true });
});

type Platform = "vapi" | "retell" | "elevenlabs";
const PLATFORMS: Platform[] = ["vapi", "retell", "elevenlabs"];
type Tool = "report_emergency" | "incident_status";

const conversationOf = (platform: Platform, callId: string) => (platform === "elevenlabs" ? callId : `${platform}:${callId}`);

/** How a credential is sent: as the platform does, or not at all, with the wrong secret, or ten minutes old. */
type Credential = "valid" | "missing" | "forged" | "stale";

function credentialHeaders(platform: Platform, raw: string, credential: Credential): Record<string, string> {
  if (credential === "missing") return {};
  const old = Date.now() - 10 * 60_000;
  switch (platform) {
    case "vapi":
      return vapiHmacHeaders(credential === "forged" ? "not-the-secret" : VAPI_SECRET, raw, credential === "stale" ? old : Date.now());
    case "retell":
      return { "x-retell-signature": retellSignatureHeader(credential === "forged" ? "key_wrong" : RETELL_KEY, raw, credential === "stale" ? old : Date.now()) };
    case "elevenlabs":
      // A shared secret has no age: "stale" is the secret before a rotation, which no longer opens the endpoint.
      return { "x-mayday-tool-secret": credential === "valid" ? TOOL_SECRET : credential === "stale" ? "tool_secret_before_rotation" : "forged" };
  }
}

let toolCallSeq = 0;

// Each call from a number of its own: the same callback number within the window joins its
// incident (docs/incidents.md, "Grouping"), and these calls are separate emergencies.
const numbers = new Map<string, string>();
const numberOf = (callId: string): string => {
  if (!numbers.has(callId)) numbers.set(callId, `+1615${String(2_000_000 + numbers.size)}`);
  return numbers.get(callId)!;
};

/** One tool call as the platform posts it; answers the HTTP status and, on 200, the LiveStatus the agent gets. */
async function callTool(platform: Platform, callId: string, tool: Tool, args: Record<string, unknown>, credential: Credential = "valid") {
  let body: unknown;
  let url = `http://localhost/api/live-calls/${platform}`;
  if (platform === "vapi") {
    body = {
      message: {
        type: "tool-calls",
        timestamp: Date.now(),
        call: { id: callId, assistantId: "asst_911", customer: { number: numberOf(callId) } },
        toolCallList: [{ id: `tc_${++toolCallSeq}`, type: "function", function: { name: tool, arguments: JSON.stringify(args) } }],
      },
    };
  } else if (platform === "retell") {
    body = { name: tool, args, call: { call_id: callId, agent_id: "agent_retell_911", direction: "inbound", from_number: numberOf(callId), call_status: "ongoing" } };
  } else {
    body = { conversation_id: callId, caller_id: numberOf(callId), agent_id: "agent_el_911", ...args };
    url = `${url}/${tool}`;
  }
  const raw = JSON.stringify(body);
  const request = new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...credentialHeaders(platform, raw, credential) },
    body: raw,
  });
  const response =
    platform === "vapi"
      ? await vapiToolPost(request, undefined)
      : platform === "retell"
        ? await retellToolPost(request, undefined)
        : await elevenLabsToolPost(request, { params: Promise.resolve({ tool }) });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) return { status: response.status, json, answer: undefined };
  if (platform !== "vapi") return { status: 200, json, answer: json as unknown as LiveStatus };
  const [result] = json.results as { toolCallId: string; name: string; result?: string }[];
  expect(result.name).toBe(tool);
  return { status: 200, json, answer: JSON.parse(result.result!) as LiveStatus };
}

/** The post-call event with its analysis, signed as the platform signs it. */
async function postCall(platform: Platform, callId: string, location: string): Promise<number> {
  // The sample events' numbers are one for every call: each call's own instead.
  const own = (text: string) => text.replaceAll(/\+1615555(?:0123|0142|0177)|\(615\) 555-0177/g, numberOf(callId));
  if (platform === "elevenlabs") {
    const event = JSON.parse(own(JSON.stringify(elevenLabsCallEvent(callId, { location }))));
    return (await webhookPost(webhookRequest(event, { secret: ELEVENLABS_WEBHOOK_SECRET }), undefined)).status;
  }
  const raw = own(JSON.stringify(platform === "vapi" ? vapiEndOfCallReport(callId, { location }) : retellCallEvent("call_analyzed", callId, { location })));
  const headers = platform === "vapi" ? vapiHmacHeaders(VAPI_SECRET, raw) : { "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) };
  const request = new Request(`http://localhost/api/voiceagent-webhook/${platform}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw,
  });
  return (await (platform === "vapi" ? vapiPost : retellPost)(request, undefined)).status;
}

/** A live event's state: the call started, one more transcript turn (the n-th), or ended. */
type LiveState = { kind: "started" } | { kind: "turn"; n: number } | { kind: "ended" };
const LIVE_PLATFORMS = ["vapi", "retell"] as const;
type LivePlatform = (typeof LIVE_PLATFORMS)[number];
const CALL_START_MS = Date.now() - 60_000;
const liveTurn = (n: number) => `live turn ${n}: the smoke is getting thicker`;

/**
 * A live event on the platform's webhook route, signed as the platform signs it: Vapi's
 * status-update and final transcript messages (one turn each), Retell's call_started and
 * transcript_updated (the conversation so far: turns 1 to n).
 */
async function postLive(platform: LivePlatform, callId: string, state: LiveState): Promise<{ status: number; message: unknown }> {
  let body: unknown;
  if (platform === "vapi") {
    const call = { id: callId, assistantId: "asst_911", customer: { number: numberOf(callId) }, startedAt: new Date(CALL_START_MS).toISOString() };
    body = {
      message:
        state.kind === "turn"
          // Both forms of the type: `transcript`, and the finals-only subscription's own name.
          ? { type: state.n % 2 ? "transcript" : "transcript[transcriptType='final']", transcriptType: "final", role: state.n % 2 ? "user" : "assistant", transcript: liveTurn(state.n), timestamp: CALL_START_MS + state.n * 1_000, call }
          : { type: "status-update", status: state.kind === "started" ? "in-progress" : "ended", timestamp: Date.now(), call },
    };
  } else {
    const turns = state.kind === "turn" ? Array.from({ length: state.n }, (_, index) => ({ role: index % 2 ? "agent" : "user", content: liveTurn(index + 1), words: [{ word: "live", start: index, end: index + 0.5 }] })) : [];
    body = {
      event: state.kind === "started" ? "call_started" : "transcript_updated",
      call: {
        call_id: callId, agent_id: "agent_retell_911", direction: "inbound", from_number: numberOf(callId),
        call_status: state.kind === "ended" ? "ended" : "ongoing", start_timestamp: CALL_START_MS, transcript_object: turns,
      },
    };
  }
  const raw = JSON.stringify(body);
  const headers = platform === "vapi" ? vapiHmacHeaders(VAPI_SECRET, raw) : { "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) };
  const request = new Request(`http://localhost/api/voiceagent-webhook/${platform}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: raw });
  const response = await (platform === "vapi" ? vapiPost : retellPost)(request, undefined);
  return { status: response.status, message: ((await response.json()) as { message?: unknown }).message };
}

const storedTurns = async (conversationId: string) =>
  ((await getCall(conversationId)).transcript as { speaker: string; text: string }[]).map((turn) => turn.text);

/** The analysis each sample post-call event carries (each platform's sample-events.ts in lib/voice-platforms), as stored. */
const ANALYSIS: Record<Platform, { type: string; severity: string }> = {
  vapi: { type: normaliseEmergencyType("structure fire"), severity: normaliseSeverity("critical") },
  retell: { type: normaliseEmergencyType("Structure Fire"), severity: normaliseSeverity("Critical") },
  elevenlabs: { type: normaliseEmergencyType("power lines down"), severity: normaliseSeverity("High") },
};

const patchCall = (conversationId: string, body: unknown) =>
  patchCallRoute(
    apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );

const instruct = (conversationId: string, text: string) =>
  instructPost(
    apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}/instruction`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text }),
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );

async function stored(conversationId: string) {
  const db = await getDb();
  const calls = await db.call.findMany({ where: { conversationId } });
  const creations = await db.callStatusChange.count({ where: { fromStatus: null, call: { conversationId } } });
  return { calls, creations };
}

const getCall = async (conversationId: string) =>
  (await (await getCallRoute(apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}`), {
    params: Promise.resolve({ id: conversationId }),
  })).json()) as Record<string, unknown>;

const incidentCount = async () => (await getDb()).incident.count();

describe("live tools: one call record whatever the order of events", () => {
  const report = fc.record(
    {
      emergency_type: fc.constantFrom("fire", "gas leak", "medical"),
      severity: fc.constantFrom("critical", "high", "moderate"),
      location: fc.constant("LOCATION"),
      callback_number: fc.constant("+1 615 555 0199"),
      details: fc.constantFrom("live details: two people inside", "live details: smoke on the second floor"),
    },
    { requiredKeys: [] },
  );
  type Event =
    | { kind: "report"; args: Record<string, unknown> }
    | { kind: "status" }
    | { kind: "post-call" }
    | { kind: "correct" }
    | { kind: "live"; state: LiveState };
  const events = fc
    .record({
      platform: fc.constantFrom(...PLATFORMS),
      reports: fc.array(report, { minLength: 1, maxLength: 3 }),
      repeats: fc.array(fc.nat({ max: 1 }), { minLength: 3, maxLength: 3 }),
      statuses: fc.nat({ max: 1 }),
      postCalls: fc.integer({ min: 1, max: 2 }),
      correct: fc.boolean(),
      started: fc.nat({ max: 2 }),
      turns: fc.nat({ max: 3 }),
      turnRepeats: fc.nat({ max: 1 }),
      ended: fc.nat({ max: 1 }),
    })
    .chain(({ platform, reports, repeats, statuses, postCalls, correct, started, turns, turnRepeats, ended }) => {
      // ElevenLabs sends nothing live but the tool calls.
      const live: Event[] = platform === "elevenlabs" ? [] : [
        ...Array<Event>(started).fill({ kind: "live", state: { kind: "started" } }),
        ...Array.from({ length: turns }, (_, index) => Array<Event>(1 + turnRepeats).fill({ kind: "live", state: { kind: "turn", n: index + 1 } })).flat(),
        ...Array<Event>(ended).fill({ kind: "live", state: { kind: "ended" } }),
      ];
      const list: Event[] = [
        ...reports.flatMap((args, index) => Array<Event>(1 + (repeats[index] ?? 0)).fill({ kind: "report", args })),
        ...Array<Event>(statuses).fill({ kind: "status" }),
        ...Array<Event>(postCalls).fill({ kind: "post-call" }),
        ...(correct ? [{ kind: "correct" } as Event] : []),
        ...live,
      ];
      return fc.record({ platform: fc.constant(platform), order: fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }) });
    });

  it("tool calls, live events and post-call events of one call, in any order and repeated: one record, one incident, the analysis, its transcript and any correction kept", async () => {
    await fc.assert(
      fc.asyncProperty(events, async ({ platform, order }) => {
        const callId = nextId(`live${platform}`);
        const conversationId = conversationOf(platform, callId);
        const location = `${counter} Quillfeather Lane ${runId}`;
        const incidentsBefore = await incidentCount();
        let corrected = false;
        for (const event of order) {
          switch (event.kind) {
            case "report": {
              const args = {
                ...event.args,
                ...("location" in event.args ? { location } : {}),
                ...("callback_number" in event.args ? { callback_number: numberOf(callId) } : {}),
              };
              expect((await callTool(platform, callId, "report_emergency", args)).status).toBe(200);
              break;
            }
            case "status":
              expect((await callTool(platform, callId, "incident_status", {})).status).toBe(200);
              break;
            case "post-call":
              expect(await postCall(platform, callId, location)).toBe(200);
              break;
            case "live":
              expect((await postLive(platform as LivePlatform, callId, event.state)).status).toBe(200);
              break;
            case "correct": {
              // Before the call exists there is nothing to correct (404); after, the dispatcher's type stands.
              const response = await patchCall(conversationId, { emergency_type: "building_collapse" });
              expect([200, 404]).toContain(response.status);
              corrected = response.status === 200;
              break;
            }
          }
        }
        const { calls, creations } = await stored(conversationId);
        expect(calls).toHaveLength(1);
        expect(creations).toBe(1);
        const [call] = calls;
        const analysis = ANALYSIS[platform];
        expect(call.emergencyType).toBe(corrected ? "building_collapse" : analysis.type);
        expect(call.originalEmergencyType).toBe(corrected ? analysis.type : null);
        expect(call.severity).toBe(analysis.severity);
        expect(call.location).toBe(location);
        expect(call.summary).not.toContain("live details");
        expect(call.onLine).toBe(false);
        expect(call.postCallAt).not.toBeNull();
        // The post-call transcript replaced the live one.
        const turns = await storedTurns(conversationId);
        expect(turns.length).toBeGreaterThan(1);
        expect(turns.some((text) => text.startsWith("live turn"))).toBe(false);
        // One placement: the call made one incident (its location is its own), and is in it.
        expect(await incidentCount()).toBe(incidentsBefore + 1);
        expect(await (await getDb()).incident.count({ where: { id: call.incidentId } })).toBe(1);
      }),
      { numRuns: 30 },
    );
  }, 240_000);

  it("the first report puts the call on the line, placed at once; the post-call event takes it off and completes it", async () => {
    const callId = nextId("liveflow");
    const conversationId = conversationOf("retell", callId);
    const location = `${counter} Larkspur Court ${runId}`;
    const first = await callTool("retell", callId, "report_emergency", { emergency_type: "gas leak", location, details: "smell of gas" });
    expect(first.answer).toEqual({ reported: true, help_dispatched: false, others_reporting: 0, instruction: null });
    let [call] = (await stored(conversationId)).calls;
    expect(call).toMatchObject({ onLine: true, emergencyType: "gas_leak", location, summary: "smell of gas", awaitingAnalysis: false, callerPhone: numberOf(callId) });
    expect(call.liveAt).not.toBeNull();
    // The API shows it on the line, in its incident.
    expect(await getCall(conversationId)).toMatchObject({ on_line: true, status: "active", incident_id: call.incidentId });
    expect(call.incidentId).not.toBe("");
    // A later report changes only what it says.
    await callTool("retell", callId, "report_emergency", { severity: "critical" });
    [call] = (await stored(conversationId)).calls;
    expect(call).toMatchObject({ severity: "critical", emergencyType: "gas_leak", location, summary: "smell of gas" });
    // A dispatcher dispatches before hang-up: the agent can say so.
    expect((await patchCall(conversationId, { status: "dispatched" })).status).toBe(200);
    expect((await callTool("retell", callId, "incident_status", {})).answer?.help_dispatched).toBe(true);
    expect(await postCall("retell", callId, location)).toBe(200);
    [call] = (await stored(conversationId)).calls;
    expect(call).toMatchObject({ onLine: false, status: "dispatched", emergencyType: ANALYSIS.retell.type });
    expect(await getCall(conversationId)).not.toHaveProperty("on_line");
    // A tool call after the post-call event changes nothing.
    await callTool("retell", callId, "report_emergency", { emergency_type: "flooding", location: "elsewhere" });
    const [after] = (await stored(conversationId)).calls;
    expect(after).toMatchObject({ emergencyType: ANALYSIS.retell.type, location });
  });

  it("a location said in a later report is the call's location, on every platform", async () => {
    for (const platform of ["vapi", "retell", "elevenlabs"] as const) {
      const callId = nextId(`locatedlater_${platform}`);
      const conversationId = conversationOf(platform, callId);
      await callTool(platform, callId, "report_emergency", { emergency_type: "structure_fire", severity: "moderate", details: "smoke from the roof" });
      expect((await stored(conversationId)).calls[0]).toMatchObject({ onLine: true, location: "" });
      const location = `e2e live call, ${counter} Ferryman Row`;
      await callTool(platform, callId, "report_emergency", { location });
      const [call] = (await stored(conversationId)).calls;
      expect(call).toMatchObject({ onLine: true, location, emergencyType: "structure_fire" });
      // The incident says it too: its queue row and marker read the incident's location.
      const incident = await (await getDb()).incident.findUniqueOrThrow({ where: { id: call.incidentId } });
      expect(incident.location).toBe(location);
    }
  });

  it("live events put the call on the line with its transcript so far; ended takes it off for good; the post-call transcript replaces the live one", async () => {
    for (const platform of LIVE_PLATFORMS) {
      const callId = nextId(`liveevents${platform}`);
      const conversationId = conversationOf(platform, callId);
      expect(await postLive(platform, callId, { kind: "started" })).toEqual({ status: 200, message: "Webhook received" });
      let [call] = (await stored(conversationId)).calls;
      expect(call).toMatchObject({ onLine: true, emergencyType: "unknown", location: "", awaitingAnalysis: true, liveLocatedAt: null });
      expect(await getCall(conversationId)).toMatchObject({ on_line: true, transcript: [] });
      await postLive(platform, callId, { kind: "turn", n: 1 });
      // Each turn is a change of the call on the feed, so an open call detail shows it (use-change-feed.ts).
      const before = (await stored(conversationId)).calls[0].changeNumber;
      await postLive(platform, callId, { kind: "turn", n: 2 });
      expect((await stored(conversationId)).calls[0].changeNumber).toBeGreaterThan(before);
      await postLive(platform, callId, { kind: "turn", n: 2 });
      expect(await storedTurns(conversationId)).toEqual([liveTurn(1), liveTurn(2)]);
      const detail = await getCall(conversationId);
      expect(detail.transcript).toMatchObject([{ speaker: "user" }, { speaker: "agent" }]);
      // Retell's late, shorter snapshot changes nothing; Vapi's repeated turn is not added again.
      await postLive(platform, callId, { kind: "turn", n: 1 });
      expect(await storedTurns(conversationId)).toEqual([liveTurn(1), liveTurn(2)]);
      // The agent's report on the same record, then ended: off the line, and a later event leaves it off.
      await callTool(platform, callId, "report_emergency", { emergency_type: "fire", location: `${counter} Ember Row ${runId}` });
      await postLive(platform, callId, { kind: "ended" });
      await postLive(platform, callId, { kind: "turn", n: 3 });
      [call] = (await stored(conversationId)).calls;
      expect(call).toMatchObject({ onLine: false, emergencyType: "structure_fire" });
      expect(call.liveEndedAt).not.toBeNull();
      expect(call.liveLocatedAt).not.toBeNull();
      expect(await postCall(platform, callId, call.location)).toBe(200);
      expect(await storedTurns(conversationId)).toEqual(["911, what is your emergency?", "There is a fire on our street."]);
      // After the post-call event a live event changes nothing.
      await postLive(platform, callId, { kind: "turn", n: 4 });
      expect(await storedTurns(conversationId)).toEqual(["911, what is your emergency?", "There is a fire on our street."]);
      expect((await stored(conversationId)).calls).toHaveLength(1);
    }
  });

  it("a partial Vapi transcript and a ringing status are archived and acknowledged, storing nothing", async () => {
    const callId = nextId("vapipartial");
    for (const message of [
      { type: "transcript", transcriptType: "partial", role: "user", transcript: "there is" },
      { type: "status-update", status: "ringing" },
    ]) {
      const raw = JSON.stringify({ message: { ...message, call: { id: callId } } });
      const request = new Request("http://localhost/api/voiceagent-webhook/vapi", {
        method: "POST", headers: { "content-type": "application/json", ...vapiHmacHeaders(VAPI_SECRET, raw) }, body: raw,
      });
      const response = await vapiPost(request, undefined);
      expect(await response.json()).toEqual({ status: "success", message: "Event ignored" });
    }
    expect((await stored(conversationOf("vapi", callId))).calls).toHaveLength(0);
  });

  it("live events with a forged, stale or missing credential are refused with 401, storing nothing", async () => {
    for (const platform of LIVE_PLATFORMS) {
      for (const credential of ["missing", "forged", "stale"] as const) {
        const callId = nextId(`liveforged${platform}`);
        const raw = JSON.stringify(platform === "vapi"
          ? { message: { type: "status-update", status: "in-progress", call: { id: callId } } }
          : { event: "call_started", call: { call_id: callId } });
        const request = new Request(`http://localhost/api/voiceagent-webhook/${platform}`, {
          method: "POST", headers: { "content-type": "application/json", ...credentialHeaders(platform, raw, credential) }, body: raw,
        });
        expect((await (platform === "vapi" ? vapiPost : retellPost)(request, undefined)).status).toBe(401);
        expect((await stored(conversationOf(platform, callId))).calls).toHaveLength(0);
      }
    }
  });

  it("an analysis with no location keeps the location the agent reported live, and its point", async () => {
    for (const platform of PLATFORMS) {
      const callId = nextId(`livekept${platform}`);
      const conversationId = conversationOf(platform, callId);
      const location = `${counter} Kestrel Avenue ${runId}`;
      await callTool(platform, callId, "report_emergency", { emergency_type: "fire", location });
      const [live] = (await stored(conversationId)).calls;
      expect(await postCall(platform, callId, "")).toBe(200);
      const [call] = (await stored(conversationId)).calls;
      expect(call).toMatchObject({ location, latitude: live.latitude, longitude: live.longitude, originalLocation: null, emergencyType: ANALYSIS[platform].type });
    }
    // A call that was never live still takes the analysis as it is.
    const callId = nextId("neverlive");
    expect(await postCall("vapi", callId, "")).toBe(200);
    expect((await stored(conversationOf("vapi", callId))).calls[0].location).toBe("");
  });

  it("first reports of one call racing each other make one record in one incident", async () => {
    for (const platform of PLATFORMS) {
      const callId = nextId(`race${platform}`);
      const location = `${counter} Racing Way ${runId}`;
      const incidentsBefore = await incidentCount();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) => callTool(platform, callId, "report_emergency", { emergency_type: "fire", location, details: `report ${index}` })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
      const { calls, creations } = await stored(conversationOf(platform, callId));
      expect(calls).toHaveLength(1);
      expect(creations).toBe(1);
      expect(await incidentCount()).toBe(incidentsBefore + 1);
    }
  });

  it("Vapi: several tool calls in one message are answered in order, a tool Mayday does not have with an error; other messages with no results", async () => {
    const callId = nextId("vapimany");
    const post = async (message: Record<string, unknown>) => {
      const raw = JSON.stringify({ message: { call: { id: callId }, ...message } });
      const request = new Request("http://localhost/api/live-calls/vapi", {
        method: "POST",
        headers: { "content-type": "application/json", ...vapiHmacHeaders(VAPI_SECRET, raw) },
        body: raw,
      });
      const response = await vapiToolPost(request, undefined);
      expect(response.status).toBe(200);
      return (await response.json()) as { results: { toolCallId: string; name: string; result?: string; error?: string }[] };
    };
    const { results } = await post({
      type: "tool-calls",
      toolCallList: [
        { id: "a", type: "function", function: { name: "report_emergency", arguments: { emergency_type: "fire" } } },
        { id: "b", type: "function", function: { name: "transfer_call", arguments: "{}" } },
        { id: "c", type: "function", function: { name: "incident_status", arguments: "{}" } },
      ],
    });
    expect(results.map(({ toolCallId, name }) => [toolCallId, name])).toEqual([["a", "report_emergency"], ["b", "transfer_call"], ["c", "incident_status"]]);
    expect(results[1]).toMatchObject({ error: expect.stringContaining("Unknown tool") });
    expect(results[1].result).toBeUndefined();
    expect(JSON.parse(results[2].result!)).toMatchObject({ reported: true });
    expect(await post({ type: "status-update", status: "in-progress" })).toEqual({ results: [] });
  });

  it(`Vapi: a message of more than ${VAPI_TOOL_CALLS_MAX} tool calls is refused whole, none of them run; ${VAPI_TOOL_CALLS_MAX} are run`, async () => {
    const post = async (callId: string, count: number) => {
      const raw = JSON.stringify({
        message: {
          type: "tool-calls",
          call: { id: callId },
          toolCallList: Array.from({ length: count }, (_, index) => ({ id: `t${index}`, type: "function", function: { name: "report_emergency", arguments: { details: `report ${index}` } } })),
        },
      });
      const request = new Request("http://localhost/api/live-calls/vapi", { method: "POST", headers: { "content-type": "application/json", ...vapiHmacHeaders(VAPI_SECRET, raw) }, body: raw });
      const response = await vapiToolPost(request, undefined);
      return { status: response.status, json: (await response.json()) as { error_code?: string; message?: string; results?: unknown[] } };
    };
    const refusedId = nextId("vapiflood");
    for (const count of [VAPI_TOOL_CALLS_MAX + 1, 2_000]) {
      const refused = await post(refusedId, count);
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ error_code: "MISSING_FIELDS", message: expect.stringContaining(`${count} tool calls: at most ${VAPI_TOOL_CALLS_MAX}`) });
    }
    expect((await stored(conversationOf("vapi", refusedId))).calls).toHaveLength(0);
    const takenId = nextId("vapicap");
    const taken = await post(takenId, VAPI_TOOL_CALLS_MAX);
    expect(taken.status).toBe(200);
    expect(taken.json.results).toHaveLength(VAPI_TOOL_CALLS_MAX);
    expect((await stored(conversationOf("vapi", takenId))).calls).toHaveLength(1);
  });

  it("a tool body with bytes that are not UTF-8 is read with U+FFFD, not refused: a call is never refused for its content", async () => {
    const callId = nextId("vapibytes");
    const [head, tail] = JSON.stringify({
      message: { type: "tool-calls", call: { id: callId }, toolCallList: [{ id: "u", type: "function", function: { name: "report_emergency", arguments: { emergency_type: "fire", details: "smoke HOLE upstairs" } } }] },
    }).split("HOLE");
    const raw = Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xc0, 0x80]), Buffer.from(tail)]);
    const request = new Request("http://localhost/api/live-calls/vapi", { method: "POST", headers: { "content-type": "application/json", ...vapiHmacHeaders(VAPI_SECRET, raw) }, body: raw });
    const response = await vapiToolPost(request, undefined);
    expect(response.status).toBe(200);
    expect((await stored(conversationOf("vapi", callId))).calls).toMatchObject([{ emergencyType: "structure_fire" }]);
  });

  it("refuses a call id that is not the platform's, storing nothing", async () => {
    const result = await callTool("elevenlabs", "vapi:someone-elses", "report_emergency", { emergency_type: "fire" });
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ error_code: "MISSING_FIELDS" });
    expect((await stored("vapi:someone-elses")).calls).toHaveLength(0);
  });

  it("a live call whose post-call event never comes is marked ended after the timeout and stays listed; a late one still completes it", async () => {
    const callId = nextId("liveidle");
    const conversationId = conversationOf("vapi", callId);
    await callTool("vapi", callId, "report_emergency", { emergency_type: "fire" });
    expect((await stored(conversationId)).calls[0].onLine).toBe(true);
    expect(await endIdleLiveCalls(3_600)).toBe(0);
    expect((await stored(conversationId)).calls[0].onLine).toBe(true);
    expect(await endIdleLiveCalls(0)).toBeGreaterThanOrEqual(1);
    expect((await stored(conversationId)).calls).toMatchObject([{ onLine: false, emergencyType: "structure_fire", postCallAt: null }]);
    expect(await postCall("vapi", callId, `${counter} Late Road ${runId}`)).toBe(200);
    expect((await stored(conversationId)).calls).toMatchObject([{ onLine: false, emergencyType: ANALYSIS.vapi.type }]);
  });
});

describe("live tools: credentials", () => {
  const cases = PLATFORMS.flatMap((platform) =>
    (["report_emergency", "incident_status"] as Tool[]).flatMap((tool) =>
      (["missing", "forged", "stale"] as Credential[]).map((credential) => ({ platform, tool, credential }))),
  );

  it.each(cases)("$platform $tool with a $credential credential: 401, nothing stored", async ({ platform, tool, credential }) => {
    const callId = nextId(`attack${platform}`);
    const result = await callTool(platform, callId, tool, { emergency_type: "fire", location: "1 Attack Street" }, credential);
    expect(result.status).toBe(401);
    expect(result.json).toMatchObject({ status: "error", error_code: "INVALID_SIGNATURE" });
    expect((await stored(conversationOf(platform, callId))).calls).toHaveLength(0);
  });

  it("refuses every request while the platform's secret is not configured", async () => {
    delete process.env.ELEVENLABS_TOOL_SECRET;
    resetConfigForTests();
    try {
      const callId = nextId("unconfigured");
      expect((await callTool("elevenlabs", callId, "report_emergency", { emergency_type: "fire" })).status).toBe(401);
      expect((await stored(callId)).calls).toHaveLength(0);
    } finally {
      process.env.ELEVENLABS_TOOL_SECRET = TOOL_SECRET;
      resetConfigForTests();
    }
  });
});

describe("dispatcher to agent", () => {
  it.each(PLATFORMS)("%s: the instruction a dispatcher writes on a live call is what the next incident_status returns", async (platform) => {
    const callId = nextId(`instruct${platform}`);
    const conversationId = conversationOf(platform, callId);
    const before = await callTool(platform, callId, "incident_status", {});
    expect(before.answer).toEqual({ reported: false, help_dispatched: false, others_reporting: 0, instruction: null });
    await callTool(platform, callId, "report_emergency", { emergency_type: "medical", details: "not breathing" });
    const text = `Tell the caller to start CPR now (${platform})`;
    const written = await instruct(conversationId, text);
    expect(written.status).toBe(201);
    expect(await written.json()).toMatchObject({ call_id: conversationId, text });
    expect((await callTool(platform, callId, "incident_status", {})).answer?.instruction).toBe(text);
    // The latest instruction wins, and report_emergency's answer carries it too.
    await instruct(conversationId, "Ask whether the door is unlocked");
    expect((await callTool(platform, callId, "report_emergency", { severity: "critical" })).answer?.instruction).toBe("Ask whether the door is unlocked");
    const audit = await (await getDb()).auditEvent.findMany({ where: { action: "call.instruction_written", targetId: conversationId }, orderBy: [{ at: "asc" }, { id: "asc" }] });
    expect(audit.map((row) => (row.after as { text: string }).text)).toEqual([text, "Ask whether the door is unlocked"]);
  });

  it("refuses an empty instruction and one for a call that does not exist, storing nothing", async () => {
    const callId = nextId("instructbad");
    await callTool("vapi", callId, "report_emergency", { emergency_type: "fire" });
    expect((await instruct(`vapi:${callId}`, "   ")).status).toBe(400);
    expect((await instruct("vapi:no-such-call", "hello")).status).toBe(404);
    expect((await callTool("vapi", callId, "incident_status", {})).answer?.instruction).toBeNull();
  });

  it("publishes the tools' definitions to paste into the agent", async () => {
    const response = await toolsGet(new Request("http://localhost/api/live-calls/tools"), undefined);
    const body = (await response.json()) as { tools: { name: string; parameters: { properties: Record<string, unknown> } }[] };
    expect(body.tools.map((tool) => tool.name)).toEqual(["report_emergency", "incident_status"]);
    expect(Object.keys(body.tools[0].parameters.properties)).toEqual(["emergency_type", "severity", "location", "callback_number", "details"]);
  });
});
