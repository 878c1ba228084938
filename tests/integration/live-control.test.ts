import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as instructPost } from "@/app/api/calls/[id]/instruction/route";
import { POST as transferPost } from "@/app/api/calls/[id]/transfer/route";
import { POST as elevenLabsToolPost } from "@/app/api/live-calls/elevenlabs/[tool]/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import { DISPATCHER_PREFIX } from "@/lib/voice-platforms/control";
import { apiRequest } from "@/tests/support/auth";
import { type ControlStandIn, localCertificate, startControlStandIn } from "@/tests/support/control-stand-in";
import { liveToolsPostAt, webhookPostAt } from "@/tests/support/platform-routes";

const retellToolPost = liveToolsPostAt("retell");
const vapiToolPost = liveToolsPostAt("vapi");
const vapiPost = webhookPostAt("vapi");

/**
 * Dispatcher to agent (issue 38 item 3) against local stand-ins for the platforms' live control:
 * Vapi's control URL (https, self-signed for this run) and Retell's update-live-call. An
 * instruction is kept and pushed with the platform's body and credential; a control URL off the
 * published hosts, over http, or on a private address without the setting is never called; a
 * platform that fails or never answers costs neither the instruction nor a 2xx; a transfer reaches
 * Vapi with the number and is refused on the others.
 */

const VAPI_SECRET = "vapi_control_secret_0123456789";
const RETELL_KEY = "key_retell_control_0123456789abcdef";
const TOOL_SECRET = "tool_secret_control_0123456789";
const SETTINGS = [
  "VAPI_WEBHOOK_SECRET", "RETELL_API_KEY", "ELEVENLABS_TOOL_SECRET", "VAPI_CONTROL_HOSTS", "VAPI_CONTROL_ALLOW_PRIVATE_HOSTS",
  "RETELL_API_URL", "LIVE_CONTROL_TIMEOUT_MS",
] as const;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));

function setEnv(values: Partial<Record<(typeof SETTINGS)[number], string | undefined>>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
}

const runId = Date.now().toString(36);
let counter = 0;
const nextId = (label: string) => `${label}_${runId}_${++counter}`;

let vapi: ControlStandIn;
let plainVapi: ControlStandIn;
let retell: ControlStandIn;

/** The settings every test starts from: the stand-ins allowed (localhost, private addresses), Retell's API the stand-in. */
const TEST_SETTINGS = () => ({
  VAPI_CONTROL_HOSTS: "localhost",
  VAPI_CONTROL_ALLOW_PRIVATE_HOSTS: "true",
  RETELL_API_KEY: RETELL_KEY,
  RETELL_API_URL: `http://127.0.0.1:${retell.port}`,
  LIVE_CONTROL_TIMEOUT_MS: "10000",
});

beforeAll(async () => {
  const certificate = localCertificate();
  [vapi, plainVapi, retell] = await Promise.all([startControlStandIn(certificate), startControlStandIn(), startControlStandIn()]);
  setEnv({ VAPI_WEBHOOK_SECRET: VAPI_SECRET, ELEVENLABS_TOOL_SECRET: TOOL_SECRET });
});

beforeEach(() => {
  setEnv(TEST_SETTINGS());
  for (const standIn of [vapi, plainVapi, retell]) {
    standIn.received.length = 0;
    standIn.answer = { status: 200 };
  }
});

afterAll(async () => {
  await Promise.all([vapi, plainVapi, retell].map((standIn) => standIn.close()));
  setEnv(saved);
});

const vapiControlUrl = (callId: string, base = `https://localhost:${vapi.port}`) => `${base}/${callId}/control`;

/** Vapi's tool-calls message (report_emergency) carrying the call's control URL, as Vapi sends it. */
async function vapiReport(callId: string, controlUrl: string) {
  const raw = JSON.stringify({
    message: {
      type: "tool-calls",
      call: { id: callId, assistantId: "asst_911", customer: { number: "+16155550142" }, monitor: { controlUrl, listenUrl: "wss://example.invalid/listen" } },
      toolCallList: [{ id: `tc_${callId}`, type: "function", function: { name: "report_emergency", arguments: { emergency_type: "fire", location: "12 Main St" } } }],
    },
  });
  const response = await vapiToolPost(new Request("http://localhost/api/live-calls/vapi", { method: "POST", headers: { "content-type": "application/json", ...vapiHmacHeaders(VAPI_SECRET, raw) }, body: raw }), undefined);
  expect(response.status).toBe(200);
}

/** Vapi's status-update on its webhook route: the call in progress (or ended), with its control URL. */
async function vapiStatus(callId: string, status: "in-progress" | "ended", controlUrl: string) {
  const raw = JSON.stringify({ message: { type: "status-update", status, timestamp: Date.now(), call: { id: callId, assistantId: "asst_911", monitor: { controlUrl } } } });
  const response = await vapiPost(new Request("http://localhost/api/voiceagent-webhook/vapi", { method: "POST", headers: { "content-type": "application/json", ...vapiHmacHeaders(VAPI_SECRET, raw) }, body: raw }), undefined);
  expect(response.status).toBe(200);
}

async function retellReport(callId: string) {
  const raw = JSON.stringify({ name: "report_emergency", args: { emergency_type: "medical" }, call: { call_id: callId, agent_id: "agent_retell", direction: "inbound", from_number: "+16155550177", call_status: "ongoing" } });
  const response = await retellToolPost(new Request("http://localhost/api/live-calls/retell", { method: "POST", headers: { "content-type": "application/json", "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) }, body: raw }), undefined);
  expect(response.status).toBe(200);
}

async function elevenLabsReport(callId: string) {
  const request = new Request("http://localhost/api/live-calls/elevenlabs/report_emergency", {
    method: "POST",
    headers: { "content-type": "application/json", "x-mayday-tool-secret": TOOL_SECRET },
    body: JSON.stringify({ conversation_id: callId, caller_id: "+16155550123", emergency_type: "fire" }),
  });
  expect((await elevenLabsToolPost(request, { params: Promise.resolve({ tool: "report_emergency" }) })).status).toBe(200);
}

type Route = typeof instructPost;
async function post(route: Route, conversationId: string, action: "instruction" | "transfer", body: unknown) {
  const response = await route(
    apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}/${action}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const instruct = (conversationId: string, text: string) => post(instructPost, conversationId, "instruction", { text });
const transfer = (conversationId: string, body: unknown) => post(transferPost, conversationId, "transfer", body);

async function storedInstructions(conversationId: string) {
  const db = await getDb();
  return db.liveInstruction.findMany({ where: { call: { conversationId } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

async function auditOf(conversationId: string, action: string) {
  const db = await getDb();
  return (await db.auditEvent.findMany({ where: { action, targetId: conversationId }, orderBy: [{ at: "asc" }, { id: "asc" }] })).map((row) => row.after as Record<string, unknown>);
}

describe("an instruction through the platform's live control", () => {
  it("Vapi: add-message on the call's control URL, kept for incident_status too, the outcome on the instruction and audited", async () => {
    const callId = nextId("vapipush");
    await vapiReport(callId, vapiControlUrl(callId));
    const answer = await instruct(`vapi:${callId}`, "Tell them to leave the building");
    expect(answer.status).toBe(201);
    expect(answer.json.delivery).toEqual({ outcome: "pushed", reason: null });
    expect(vapi.received).toEqual([{
      method: "POST",
      path: `/${callId}/control`,
      authorization: undefined,
      body: { type: "add-message", message: { role: "system", content: `${DISPATCHER_PREFIX}Tell them to leave the building` }, triggerResponseEnabled: true },
    }]);
    expect((await storedInstructions(`vapi:${callId}`)).map((row) => [row.text, row.delivery, row.deliveryReason])).toEqual([["Tell them to leave the building", "pushed", null]]);
    expect(await auditOf(`vapi:${callId}`, "call.instruction_delivered")).toEqual([{ instruction_id: answer.json.id, platform: "vapi", outcome: "pushed", reason: null }]);
  });

  it("Vapi: the control URL of a status-update (the webhook route) is the one used, the latest one sent", async () => {
    const callId = nextId("vapistatus");
    await vapiStatus(callId, "in-progress", vapiControlUrl(callId, "https://elsewhere.example"));
    await vapiStatus(callId, "in-progress", vapiControlUrl(callId));
    expect((await instruct(`vapi:${callId}`, "Ask about the stairs")).json.delivery).toEqual({ outcome: "pushed", reason: null });
    expect(vapi.received.map((request) => request.path)).toEqual([`/${callId}/control`]);
  });

  it("Retell: update-live-call with the API key; without RETELL_API_KEY it is not called and the instruction waits", async () => {
    const callId = nextId("retellpush");
    await retellReport(callId);
    const answer = await instruct(`retell:${callId}`, "Ask if the patient is breathing");
    expect(answer.json.delivery).toEqual({ outcome: "pushed", reason: null });
    expect(retell.received).toEqual([{
      method: "PATCH",
      path: `/v2/update-live-call/${callId}`,
      authorization: `Bearer ${RETELL_KEY}`,
      body: { call_control: { additional_context: `${DISPATCHER_PREFIX}Ask if the patient is breathing`, trigger_response: true } },
    }]);
    setEnv({ RETELL_API_KEY: undefined });
    const unkeyed = await instruct(`retell:${callId}`, "Keep them talking");
    expect(unkeyed.status).toBe(201);
    expect(unkeyed.json.delivery).toMatchObject({ outcome: "waiting", reason: expect.stringContaining("RETELL_API_KEY") });
    expect(retell.received).toHaveLength(1);
  });

  it("ElevenLabs and a call off the line: nothing is called, the instruction waits for incident_status", async () => {
    const elevenId = nextId("elpush");
    await elevenLabsReport(elevenId);
    expect((await instruct(elevenId, "Stay calm")).json.delivery).toMatchObject({ outcome: "waiting", reason: expect.stringContaining("ElevenLabs") });
    const vapiId = nextId("vapiended");
    await vapiStatus(vapiId, "in-progress", vapiControlUrl(vapiId));
    await vapiStatus(vapiId, "ended", vapiControlUrl(vapiId));
    expect((await instruct(`vapi:${vapiId}`, "Too late")).json.delivery).toEqual({ outcome: "waiting", reason: "the call is not on the line" });
    expect([...vapi.received, ...retell.received]).toEqual([]);
  });

  it.each([
    ["a host off VAPI_CONTROL_HOSTS", () => ({ VAPI_CONTROL_HOSTS: "vapi.ai" }), (callId: string) => vapiControlUrl(callId), "VAPI_CONTROL_HOSTS"],
    // A name under the domain, not one that merely ends in its letters: localhost is not under host.
    ["a host ending in an allowed name's letters", () => ({ VAPI_CONTROL_HOSTS: "host" }), (callId: string) => vapiControlUrl(callId), "is not under host"],
    ["a private address without VAPI_CONTROL_ALLOW_PRIVATE_HOSTS", () => ({ VAPI_CONTROL_ALLOW_PRIVATE_HOSTS: undefined }), (callId: string) => vapiControlUrl(callId), "refused"],
    ["http", () => ({}), (callId: string) => vapiControlUrl(callId, `http://localhost:${plainVapi.port}`), "not https"],
  ])("Vapi: a control URL on %s is never called, and the answer says why", async (_case, settings, controlUrl, why) => {
    const callId = nextId("vapirefused");
    await vapiReport(callId, controlUrl(callId));
    setEnv(settings());
    const answer = await instruct(`vapi:${callId}`, "Open the door");
    expect(answer.status).toBe(201);
    expect(answer.json.delivery).toMatchObject({ outcome: "failed", reason: expect.stringContaining(why) });
    expect([...vapi.received, ...plainVapi.received]).toEqual([]);
    expect((await storedInstructions(`vapi:${callId}`)).map((row) => row.delivery)).toEqual(["failed"]);
  });

  it.each([
    ["answers 500", { status: 500 } as const, "10000", "the platform answered HTTP 500"],
    ["never answers", "never" as const, "300", "no answer within 300 ms"],
  ])("a platform that %s: the instruction is kept, the answer says the push failed, no 5xx", async (_case, standInAnswer, timeoutMs, why) => {
    const callId = nextId("vapifail");
    await vapiReport(callId, vapiControlUrl(callId));
    setEnv({ LIVE_CONTROL_TIMEOUT_MS: timeoutMs });
    vapi.answer = standInAnswer;
    const answer = await instruct(`vapi:${callId}`, "Check the exits");
    expect(answer.status).toBe(201);
    expect(answer.json.delivery).toEqual({ outcome: "failed", reason: why });
    expect(vapi.received).toHaveLength(1);
    expect((await storedInstructions(`vapi:${callId}`)).map((row) => [row.text, row.delivery, row.deliveryReason])).toEqual([["Check the exits", "failed", why]]);
    expect(await auditOf(`vapi:${callId}`, "call.instruction_written")).toEqual([{ instruction_id: answer.json.id, text: "Check the exits" }]);
  });
});

describe("a transfer of the caller", () => {
  it("Vapi: transfer on the call's control URL with the number and message, audited with the outcome", async () => {
    const callId = nextId("vapitransfer");
    await vapiReport(callId, vapiControlUrl(callId));
    const answer = await transfer(`vapi:${callId}`, { number: "+16155550100", message: "Connecting you to a dispatcher" });
    expect(answer).toEqual({ status: 200, json: { call_id: `vapi:${callId}`, number: "+16155550100", delivery: { outcome: "pushed", reason: null } } });
    expect(vapi.received).toEqual([{
      method: "POST",
      path: `/${callId}/control`,
      authorization: undefined,
      body: { type: "transfer", destination: { type: "number", number: "+16155550100" }, content: "Connecting you to a dispatcher" },
    }]);
    expect(await auditOf(`vapi:${callId}`, "call.transfer_requested")).toEqual([{ number: "+16155550100", message: "Connecting you to a dispatcher", outcome: "pushed", reason: null }]);
    vapi.answer = { status: 500 };
    const failed = await transfer(`vapi:${callId}`, { number: "+16155550100" });
    expect(failed).toMatchObject({ status: 200, json: { delivery: { outcome: "failed", reason: "the platform answered HTTP 500" } } });
    expect((vapi.received[1].body as Record<string, unknown>).content).toBeUndefined();
  });

  it("Retell and ElevenLabs: refused with TRANSFER_NOT_SUPPORTED; a call off the line with CALL_NOT_LIVE; nothing called", async () => {
    const retellId = nextId("retelltransfer");
    await retellReport(retellId);
    const elevenId = nextId("eltransfer");
    await elevenLabsReport(elevenId);
    const vapiId = nextId("vapioff");
    await vapiStatus(vapiId, "in-progress", vapiControlUrl(vapiId));
    await vapiStatus(vapiId, "ended", vapiControlUrl(vapiId));
    for (const conversationId of [`retell:${retellId}`, elevenId]) {
      const refused = await transfer(conversationId, { number: "+16155550100" });
      expect([refused.status, refused.json.error_code]).toEqual([409, "TRANSFER_NOT_SUPPORTED"]);
    }
    const offLine = await transfer(`vapi:${vapiId}`, { number: "+16155550100" });
    expect([offLine.status, offLine.json.error_code]).toEqual([409, "CALL_NOT_LIVE"]);
    expect([...vapi.received, ...retell.received]).toEqual([]);
    expect(await auditOf(`vapi:${vapiId}`, "call.transfer_requested")).toEqual([]);
  });

  it("refuses a number that is not E.164 and a call that does not exist", async () => {
    const callId = nextId("vapibadnumber");
    await vapiReport(callId, vapiControlUrl(callId));
    for (const body of [{ number: "555-0100" }, { number: "+0123456789" }, {}, { number: "+16155550100", message: "x".repeat(1001) }]) {
      expect((await transfer(`vapi:${callId}`, body)).status).toBe(400);
    }
    expect((await transfer("vapi:no-such-call", { number: "+16155550100" })).status).toBe(404);
    expect(vapi.received).toEqual([]);
  });
});

describe("credentials", () => {
  it.each([
    ["missing", "none"],
    ["forged", "Bearer not-the-api-key"],
  ])("a %s credential: 401 on both endpoints, nothing stored or called", async (_case, authorization) => {
    const callId = nextId("vapiauth");
    await vapiReport(callId, vapiControlUrl(callId));
    const asSent = async (route: "instruction" | "transfer") => {
      const body = route === "instruction" ? { text: "Hello" } : { number: "+16155550100" };
      const headers = { "content-type": "application/json", ...(authorization === "none" ? {} : { authorization }) };
      const response = await (route === "instruction" ? instructPost : transferPost)(
        new Request(`http://localhost/api/calls/${encodeURIComponent(`vapi:${callId}`)}/${route}`, { method: "POST", headers, body: JSON.stringify(body) }),
        { params: Promise.resolve({ id: `vapi:${callId}` }) },
      );
      return response.status;
    };
    expect(await asSent("instruction")).toBe(401);
    expect(await asSent("transfer")).toBe(401);
    expect(await storedInstructions(`vapi:${callId}`)).toEqual([]);
    expect(vapi.received).toEqual([]);
  });
});
