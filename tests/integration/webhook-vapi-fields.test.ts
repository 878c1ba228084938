import { randomBytes } from "node:crypto";
import type { Vapi } from "@vapi-ai/server-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { POST as elevenLabsPost } from "@/app/api/voiceagent-webhook/route";
import type { CallDetail } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import { recordingKey } from "@/lib/intake/receive";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";
import { archiveRecordingsNow, startRecordingArchiver, stopRecordingArchiver } from "@/lib/intake/recording-archiver";
import { getObjectStore } from "@/lib/storage/get-object-store";
import { elevenLabsCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { retellCallEvent } from "@/lib/voice-platforms/retell/sample-events";
import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";
import { apiRequest } from "../support/auth";
import { setEnv } from "../support/env";
import { startStandInServer, type StandInServer } from "../support/stand-in-server";
import { webhookPostAt } from "@/tests/support/platform-routes";

const retellPost = webhookPostAt("retell");
const vapiPost = webhookPostAt("vapi");

/**
 * Vapi's end-of-call report as `@vapi-ai/server-sdk` 2.0.1 types it (issue 36): the fields Vapi's
 * docs and SDK carry beside the ones first read (tool messages and empty turns among the messages,
 * `recording.stereoUrl`, `artifact.structuredOutputs`, the presigned links) are stored as
 * docs/webhook.md says; every platform's agent is the `agent` speaker; `transcript_length` is, for
 * Vapi and Retell, the number of turns stored, and for ElevenLabs the number of the transcript's
 * items (the specification's count).
 */

const VAPI_SECRET = "vapi_fields_secret_0123456789";
const RETELL_KEY = "key_retell_fields_0123456789abcd";
const ELEVENLABS_SECRET = "elevenlabs_fields_secret_0123456789";
/** Failures are due again an hour later: nothing here waits for a retry. */
const RETRY = { firstMs: 3_600_000, maxMs: 3_600_000, attempts: 3 };
const runId = Date.now().toString(36);
let counter = 0;
const nextId = (label: string) => `${label}-${runId}-${++counter}`;

const AUDIO = randomBytes(50_000);
let storage: StandInServer;

beforeAll(async () => {
  setEnv({
    VAPI_WEBHOOK_SECRET: VAPI_SECRET,
    RETELL_API_KEY: RETELL_KEY,
    VOICEAGENT_WEBHOOK_SECRET: ELEVENLABS_SECRET,
    RECORDING_ALLOW_PRIVATE_SOURCES: "true",
  });
  // Vapi's storage as the archiver meets it: /private/ wants credentials (403, or 401 under
  // /private/basic/), /presigned/ and /public/ serve the audio, /gone/ is not there.
  storage = await startStandInServer((request, response) => {
    const path = request.url.pathname;
    if (path.startsWith("/private/basic/")) response.writeHead(401, { "www-authenticate": "Basic" }).end();
    else if (path.startsWith("/private/")) response.writeHead(403, { "content-type": "application/xml" }).end("<Error>AccessDenied</Error>");
    else if (path.startsWith("/gone/")) response.writeHead(404).end();
    else response.writeHead(200, { "content-type": "audio/wav" }).end(AUDIO);
  });
  startRecordingArchiver({ retry: RETRY, sweepMs: 3_600_000 });
});

afterAll(async () => {
  await stopRecordingArchiver();
  await storage.close();
  setEnv({ VAPI_WEBHOOK_SECRET: undefined, RETELL_API_KEY: undefined, VOICEAGENT_WEBHOOK_SECRET: undefined, RECORDING_ALLOW_PRIVATE_SOURCES: undefined });
});

const STARTED_MS = 1_767_225_503_000; // 2025-12-31T23:58:23Z

/** The report's messages: the system prompt, the agent (`bot`), the caller, a tool call and its result, and an empty turn. */
const MESSAGES: Vapi.ArtifactMessagesItem[] = [
  { role: "system", message: "You are a 911 overflow agent.", time: STARTED_MS, secondsFromStart: 0 },
  { role: "bot", message: "911, what is your emergency?", time: STARTED_MS + 1_000, endTime: STARTED_MS + 2_500, secondsFromStart: 1, source: "" },
  { role: "user", message: "Smoke is coming out of the house next door.", time: STARTED_MS + 4_000, endTime: STARTED_MS + 7_000, secondsFromStart: 4 },
  {
    role: "tool_calls",
    message: "",
    toolCalls: [{ id: "call_dispatch_1", type: "function", function: { name: "dispatch_units", arguments: "{\"type\":\"fire\"}" } }],
    time: STARTED_MS + 8_000,
    secondsFromStart: 8,
  },
  { role: "tool_call_result", toolCallId: "call_dispatch_1", name: "dispatch_units", result: "{\"dispatched\":true}", time: STARTED_MS + 8_500, secondsFromStart: 8.5 },
  { role: "bot", message: "   ", time: STARTED_MS + 9_000, endTime: STARTED_MS + 9_100, secondsFromStart: 9 },
  { role: "bot", message: "Fire units are on their way. Are you safe?", time: STARTED_MS + 10_000, endTime: STARTED_MS + 12_000, secondsFromStart: 10 },
];

/**
 * An end-of-call report typed as the SDK's ServerMessage carries it; `artifact` and `analysis`
 * as given (the SDK's Artifact and Analysis), nothing else added.
 */
function report(callId: string, artifact: Vapi.Artifact, analysis: Vapi.Analysis = {}): { message: Vapi.ServerMessageEndOfCallReport } {
  return {
    message: {
      type: "end-of-call-report",
      timestamp: STARTED_MS + 99_000,
      endedReason: "customer-ended-call",
      startedAt: new Date(STARTED_MS).toISOString(),
      endedAt: new Date(STARTED_MS + 97_000).toISOString(),
      customer: { number: "+16155550142" },
      call: {
        id: callId,
        orgId: "org_5d0e0a4c",
        createdAt: new Date(STARTED_MS - 2_000).toISOString(),
        updatedAt: new Date(STARTED_MS + 98_000).toISOString(),
        type: "inboundPhoneCall",
        assistantId: "asst_911_overflow",
        customer: { number: "+16155550142" },
      },
      analysis: { summary: "Smoke from the house next door; fire units dispatched.", ...analysis },
      artifact: { messages: MESSAGES, ...artifact },
    },
  };
}

type WebhookRoute = (request: Request, context: undefined) => Promise<Response>;

/** Posts `body` through a platform's endpoint, signed as `sign` says; expects it accepted. */
async function post(route: WebhookRoute, path: string, body: unknown, sign: (raw: string) => Record<string, string>): Promise<void> {
  const raw = JSON.stringify(body);
  const response = await route(
    new Request(`http://localhost/api/voiceagent-webhook${path}`, { method: "POST", headers: { "content-type": "application/json", ...sign(raw) }, body: raw }),
    undefined,
  );
  expect(response.status).toBe(200);
}

async function postVapi(callId: string, body: { message: Vapi.ServerMessageEndOfCallReport }): Promise<string> {
  await post(vapiPost, "/vapi", body, (raw) => vapiHmacHeaders(VAPI_SECRET, raw));
  return `vapi:${callId}`;
}

async function detail(conversationId: string): Promise<CallDetail> {
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${encodeURIComponent(conversationId)}`), {
    params: Promise.resolve({ id: conversationId }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as CallDetail;
}

const fetchRow = async (conversationId: string) => (await getDb()).recordingFetch.findUnique({ where: { conversationId } });
const requestsFor = (path: string) => storage.requests.filter((request) => request.url.pathname === path).length;

describe("a Vapi report's messages", () => {
  it("keep only what was said: no system prompt, tool call, tool result or empty turn; the agent's turns are `agent`'s, and transcript_length counts the turns stored", async () => {
    const id = nextId("vapi-turns");
    const call = await detail(await postVapi(id, report(id, {})));
    expect(call.transcript).toEqual([
      { speaker: "agent", time_in_call_secs: 1, text: "911, what is your emergency?" },
      { speaker: "user", time_in_call_secs: 4, text: "Smoke is coming out of the house next door." },
      { speaker: "agent", time_in_call_secs: 10, text: "Fire units are on their way. Are you safe?" },
    ]);
    expect(call.transcript_length).toBe(3);
  });

  it("in OpenAI's form (`assistant`) are the agent's too", async () => {
    const id = nextId("vapi-assistant");
    const messages: Vapi.ArtifactMessagesItem[] = [
      { role: "assistant", message: "911, what is your emergency?", time: STARTED_MS, endTime: STARTED_MS + 1_000, secondsFromStart: 0 },
      { role: "user", message: "A car hit a pole.", time: STARTED_MS + 2_000, endTime: STARTED_MS + 3_000, secondsFromStart: 2 },
    ];
    const call = await detail(await postVapi(id, report(id, { messages })));
    expect(call.transcript.map(({ speaker }) => speaker)).toEqual(["agent", "user"]);
    expect(call.transcript_length).toBe(2);
  });
});

describe("every platform's agent", () => {
  it("is stored as `agent`, and each call's transcript_length follows its platform's rule", async () => {
    const retellId = nextId("retell-agent");
    const retellEvent = retellCallEvent("call_analyzed", retellId);
    // A line without words (Retell writes the agent's silence as "Agent: ") is not a turn.
    (retellEvent.call as Record<string, unknown>).transcript_object = [
      { role: "agent", content: "911, what is your emergency?", words: [{ word: "911,", start: 0.4, end: 0.9 }] },
      { role: "agent", content: "", words: [] },
      { role: "user", content: "There is a fire on our street.", words: [{ word: "There", start: 3.1, end: 3.3 }] },
    ];
    await post(retellPost, "/retell", retellEvent, (raw) => ({ "x-retell-signature": retellSignatureHeader(RETELL_KEY, raw) }));

    const elevenId = nextId("el-agent");
    const elevenEvent = elevenLabsCallEvent(elevenId);
    // A tool call's turn has no message (ElevenLabs sends null).
    (elevenEvent.data.transcript as unknown[]).splice(1, 0, { role: "agent", message: null, tool_calls: [{ tool_name: "dispatch" }], time_in_call_secs: 5 });
    await post(elevenLabsPost, "", elevenEvent, (raw) => ({ "elevenlabs-signature": signatureHeader(ELEVENLABS_SECRET, raw) }));

    const retell = await detail(`retell:${retellId}`);
    expect(retell.transcript.map(({ speaker }) => speaker)).toEqual(["agent", "user"]);
    expect(retell.transcript_length).toBe(2);
    const eleven = await detail(elevenId);
    expect(eleven.transcript.filter(({ speaker }) => speaker === "agent").length).toBeGreaterThan(0);
    expect(eleven.transcript.every(({ speaker }) => speaker === "agent" || speaker === "user")).toBe(true);
    // ElevenLabs: every item counts, the tool call's too; the turns stored are those with text.
    expect(eleven.transcript).toHaveLength(elevenEvent.data.transcript.length - 1);
    expect(eleven.transcript_length).toBe(elevenEvent.data.transcript.length);
  });
});

describe("an ElevenLabs event's transcript_length", () => {
  /**
   * A tool call's turn as the ElevenLabs SDK serialises it (ConversationHistoryTranscriptCommonModel
   * with every field, its `tool_calls` a ConversationHistoryTranscriptToolCallCommonModel with
   * webhook details): the agent speaks no words, so `message` is null.
   */
  const toolTurn = {
    role: "agent",
    agent_metadata: { agent_id: "agent_01jz8x3y4v5w6x7y8z9a0b1c2d", workflow_node_id: null },
    message: null,
    multivoice_message: null,
    tool_calls: [
      {
        type: "webhook",
        request_id: "report_emergency_9f2c1d0e",
        tool_name: "report_emergency",
        params_as_json: '{"emergency_type":"power_lines_down","severity":"high","address":"Music Row, Nashville"}',
        tool_has_been_called: true,
        tool_details: {
          type: "webhook",
          method: "POST",
          url: "https://mayday.example/api/live-calls/elevenlabs/report_emergency",
          headers: {},
          path_params: {},
          query_params: {},
          body: '{"emergency_type":"power_lines_down","severity":"high","address":"Music Row, Nashville"}',
        },
      },
    ],
    tool_results: [],
    feedback: null,
    llm_override: null,
    time_in_call_secs: 9,
    conversation_turn_metrics: null,
    rag_retrieval_info: null,
    llm_usage: null,
    interrupted: false,
    original_message: null,
    source_medium: null,
  };

  it("is the number of items of data.transcript, a null-message tool turn among them: 3; the turns stored are the 2 with text", async () => {
    const id = nextId("el-tool-turn");
    const event = elevenLabsCallEvent(id);
    const [greeting, caller] = event.data.transcript;
    (event.data as { transcript: unknown[] }).transcript = [greeting, caller, toolTurn];
    // Serialised as sent: JSON keeps the null message.
    expect(JSON.parse(JSON.stringify(event)).data.transcript[2].message).toBeNull();
    await post(elevenLabsPost, "", event, (raw) => ({ "elevenlabs-signature": signatureHeader(ELEVENLABS_SECRET, raw) }));

    const call = await detail(id);
    expect(call.transcript_length).toBe(3);
    expect(call.transcript).toEqual([
      { speaker: "agent", time_in_call_secs: 0, text: greeting.message },
      { speaker: "user", time_in_call_secs: 6, text: caller.message },
    ]);
    const row = await (await getDb()).call.findUniqueOrThrow({ where: { conversationId: id }, select: { transcriptLength: true } });
    expect(row.transcriptLength).toBe(3);
  });
});

describe("a Vapi report's analysis", () => {
  it("given only as structured outputs ({<id>: {name, result}}) gives the type, severity and location", async () => {
    const id = nextId("vapi-outputs");
    const structuredOutputs: Record<string, unknown> = {
      "5f0c8a1e-emergency": {
        name: "Emergency",
        result: { emergency_type: "structure fire", severity: "critical", location: "1200 Sunset Blvd, Pacific Palisades" },
      },
    };
    const call = await detail(await postVapi(id, report(id, { structuredOutputs })));
    expect(call).toMatchObject({ emergency_type: "structure_fire", severity: "critical", location: "1200 Sunset Blvd, Pacific Palisades" });
    expect(call.latitude).not.toBeNull();
  });

  it("reads an output whose result is a bare value as the field its name says", async () => {
    const id = nextId("vapi-bare-outputs");
    const structuredOutputs: Record<string, unknown> = {
      "a1": { name: "Emergency type", result: "gas leak" },
      "a2": { name: "severity", result: "high" },
      "a3": { name: "Location", result: "Mission District" },
    };
    expect(await detail(await postVapi(id, report(id, { structuredOutputs })))).toMatchObject({
      emergency_type: "gas_leak",
      severity: "high",
      location: "Mission District",
    });
  });

  it("takes structuredData where both say something, and the structured outputs for what it lacks", async () => {
    const id = nextId("vapi-both");
    const structuredOutputs: Record<string, unknown> = { b1: { name: "Emergency", result: { emergency_type: "medical", location: "Mission District" } } };
    const call = await detail(await postVapi(id, report(id, { structuredOutputs }, { structuredData: { emergency_type: "structure fire" } })));
    expect(call).toMatchObject({ emergency_type: "structure_fire", location: "Mission District" });
  });
});

describe("a Vapi report's recording", () => {
  it("given only as recording.stereoUrl is kept and archived", async () => {
    const id = nextId("vapi-stereo");
    const link = `${storage.url}/public/${id}-stereo.wav`;
    const conversationId = await postVapi(id, report(id, { recording: { stereoUrl: link } }));
    await archiveRecordingsNow();
    const call = await detail(conversationId);
    expect(call.recording_url).toBe(link);
    expect(call.recording).toMatchObject({ content_type: "audio/wav", size_bytes: AUDIO.length });
    expect((await getObjectStore().get(recordingKey(conversationId, "wav")))!.equals(AUDIO)).toBe(true);
  });

  it.each([
    { refusal: 403, raw: "private" },
    { refusal: 401, raw: "private/basic" },
  ])("is fetched from the presigned link when the raw one answers $refusal; the call keeps the raw link", async ({ raw }) => {
    const id = nextId("vapi-presigned");
    const rawLink = `${storage.url}/${raw}/${id}-mono.wav`;
    const presigned = `${storage.url}/presigned/${id}-mono.wav?X-Amz-Expires=3600&X-Amz-Signature=abc`;
    const conversationId = await postVapi(id, report(id, { recordingUrl: rawLink, recording: { mono: { combinedUrl: rawLink } }, presignedMonoUrl: presigned }));
    await archiveRecordingsNow();
    expect(requestsFor(`/${raw}/${id}-mono.wav`)).toBe(1);
    expect(requestsFor(`/presigned/${id}-mono.wav`)).toBe(1);
    const call = await detail(conversationId);
    expect(call.recording_url).toBe(rawLink);
    expect(call.recording).toMatchObject({ content_type: "audio/wav", size_bytes: AUDIO.length });
    expect(await fetchRow(conversationId)).toMatchObject({ state: "archived", attempts: 1, lastError: null });
  });

  it("tries the presigned link only for a refusal: a 404 is the raw link's failure, retried later", async () => {
    const id = nextId("vapi-raw-gone");
    const conversationId = await postVapi(
      id,
      report(id, { recordingUrl: `${storage.url}/gone/${id}.wav`, presignedMonoUrl: `${storage.url}/presigned/${id}.wav` }),
    );
    await archiveRecordingsNow();
    expect(requestsFor(`/presigned/${id}.wav`)).toBe(0);
    expect(await fetchRow(conversationId)).toMatchObject({ state: "pending", attempts: 1, lastError: "HTTP 404" });
  });

  it("names both answers when the presigned link is refused too", async () => {
    const id = nextId("vapi-both-refused");
    const conversationId = await postVapi(
      id,
      report(id, { recordingUrl: `${storage.url}/private/${id}.wav`, presignedMonoUrl: `${storage.url}/private/basic/${id}.wav` }),
    );
    await archiveRecordingsNow();
    expect(await fetchRow(conversationId)).toMatchObject({ state: "pending", attempts: 1, lastError: "HTTP 403; presigned link: HTTP 401" });
    expect((await detail(conversationId)).recording).toBeNull();
  });

  it("given only as a presigned link is fetched from it", async () => {
    const id = nextId("vapi-presigned-only");
    const presigned = `${storage.url}/presigned/${id}-stereo.wav?X-Amz-Signature=def`;
    const conversationId = await postVapi(id, report(id, { presignedStereoUrl: presigned }));
    await archiveRecordingsNow();
    expect((await detail(conversationId)).recording).toMatchObject({ size_bytes: AUDIO.length });
  });

  it("redelivered with a fresh presigned link keeps its attempts and fetches the latest presigned link", async () => {
    const id = nextId("vapi-redelivered");
    const rawLink = `${storage.url}/private/${id}.wav`;
    const conversationId = await postVapi(id, report(id, { recordingUrl: rawLink, presignedMonoUrl: `${storage.url}/private/basic/${id}-old.wav` }));
    await archiveRecordingsNow();
    expect(await fetchRow(conversationId)).toMatchObject({ state: "pending", attempts: 1 });
    const fresh = `${storage.url}/presigned/${id}-new.wav`;
    await postVapi(id, report(id, { recordingUrl: rawLink, presignedMonoUrl: fresh }));
    expect(await fetchRow(conversationId)).toMatchObject({ state: "pending", attempts: 1, url: rawLink, fallbackUrl: fresh });
    await (await getDb()).$executeRaw`UPDATE recording_fetches SET next_attempt_at = now() WHERE conversation_id = ${conversationId}`;
    await archiveRecordingsNow();
    expect(await fetchRow(conversationId)).toMatchObject({ state: "archived", attempts: 2 });
    expect(requestsFor(`/presigned/${id}-new.wav`)).toBe(1);
  });
});
