import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as instructPost } from "@/app/api/calls/[id]/instruction/route";
import { GET as getCallRoute, PATCH as patchCallRoute } from "@/app/api/calls/[id]/route";
import { POST as elevenLabsToolPost } from "@/app/api/live-calls/elevenlabs/[tool]/route";
import { POST as retellToolPost } from "@/app/api/live-calls/retell/route";
import { GET as toolsGet } from "@/app/api/live-calls/tools/route";
import { POST as vapiToolPost } from "@/app/api/live-calls/vapi/route";
import { POST as webhookPost } from "@/app/api/voiceagent-webhook/route";
import { POST as retellPost } from "@/app/api/voiceagent-webhook/retell/route";
import { POST as vapiPost } from "@/app/api/voiceagent-webhook/vapi/route";
import { endIdleLiveCalls } from "@/lib/calls/write/live";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { retellSignatureHeader } from "@/lib/intake/platforms/retell";
import { vapiHmacHeaders } from "@/lib/intake/platforms/vapi";
import type { LiveStatus } from "@/lib/live-calls/status";
import { type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { LocalObjectStore } from "@/lib/storage/local";
import { normaliseEmergencyType, normaliseSeverity } from "@/lib/webhook/payload";
import { elevenLabsCallEvent, retellCallEvent, vapiEndOfCallReport } from "@/lib/webhook/sample-events";
import { apiRequest } from "@/tests/support/auth";
import { webhookRequest } from "@/tests/support/webhook-request";

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

/** One tool call as the platform posts it; answers the HTTP status and, on 200, the LiveStatus the agent gets. */
async function callTool(platform: Platform, callId: string, tool: Tool, args: Record<string, unknown>, credential: Credential = "valid") {
  let body: unknown;
  let url = `http://localhost/api/live-calls/${platform}`;
  if (platform === "vapi") {
    body = {
      message: {
        type: "tool-calls",
        timestamp: Date.now(),
        call: { id: callId, assistantId: "asst_911", customer: { number: "+16155550142" } },
        toolCallList: [{ id: `tc_${++toolCallSeq}`, type: "function", function: { name: tool, arguments: JSON.stringify(args) } }],
      },
    };
  } else if (platform === "retell") {
    body = { name: tool, args, call: { call_id: callId, agent_id: "agent_retell_911", direction: "inbound", from_number: "+16155550177", call_status: "ongoing" } };
  } else {
    body = { conversation_id: callId, caller_id: "+16155550123", agent_id: "agent_el_911", ...args };
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
  if (platform === "elevenlabs") {
    return (await webhookPost(webhookRequest(elevenLabsCallEvent(callId, { location }), { secret: ELEVENLABS_WEBHOOK_SECRET }), undefined)).status;
  }
  const raw = JSON.stringify(platform === "vapi" ? vapiEndOfCallReport(callId, { location }) : retellCallEvent("call_analyzed", callId, { location }));
  const headers = platform === "vapi" ? vapiHmacHeaders(VAPI_SECRET, raw) : { "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) };
  const request = new Request(`http://localhost/api/voiceagent-webhook/${platform}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw,
  });
  return (await (platform === "vapi" ? vapiPost : retellPost)(request, undefined)).status;
}

/** The analysis each sample post-call event carries (lib/webhook/sample-events.ts), as stored. */
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
    | { kind: "correct" };
  const events = fc
    .record({
      platform: fc.constantFrom(...PLATFORMS),
      reports: fc.array(report, { minLength: 1, maxLength: 3 }),
      repeats: fc.array(fc.nat({ max: 1 }), { minLength: 3, maxLength: 3 }),
      statuses: fc.nat({ max: 1 }),
      postCalls: fc.integer({ min: 1, max: 2 }),
      correct: fc.boolean(),
    })
    .chain(({ platform, reports, repeats, statuses, postCalls, correct }) => {
      const list: Event[] = [
        ...reports.flatMap((args, index) => Array<Event>(1 + (repeats[index] ?? 0)).fill({ kind: "report", args })),
        ...Array<Event>(statuses).fill({ kind: "status" }),
        ...Array<Event>(postCalls).fill({ kind: "post-call" }),
        ...(correct ? [{ kind: "correct" } as Event] : []),
      ];
      return fc.record({ platform: fc.constant(platform), order: fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }) });
    });

  it("tool calls and post-call events of one call, in any order and repeated: one record, one incident, the analysis and any correction kept", async () => {
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
              const args = { ...event.args, ...("location" in event.args ? { location } : {}) };
              expect((await callTool(platform, callId, "report_emergency", args)).status).toBe(200);
              break;
            }
            case "status":
              expect((await callTool(platform, callId, "incident_status", {})).status).toBe(200);
              break;
            case "post-call":
              expect(await postCall(platform, callId, location)).toBe(200);
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
    expect(call).toMatchObject({ onLine: true, emergencyType: "gas_leak", location, summary: "smell of gas", awaitingAnalysis: false, callerPhone: "+16155550177" });
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
    expect((await stored(conversationId)).calls).toMatchObject([{ onLine: false, emergencyType: "fire", postCallAt: null }]);
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
