import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { GET as eidoRoute } from "@/app/api/incidents/[id]/eido/route";
import { POST as elevenLabsToolPost } from "@/app/api/live-calls/elevenlabs/[tool]/route";
import { GET as incidentsRoute } from "@/app/api/incidents/route";
import { POST as webhookPost } from "@/app/api/voiceagent-webhook/route";
import { type CallRecord, callRecordSchema } from "@/lib/calls/schema";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { callStateOf, type Eido } from "@/lib/eido/build";
import { APCO_INCIDENT_TYPES, incidentTypeCode } from "@/lib/eido/registry";
import { readFeedHead } from "@/lib/feed";
import { groupNow } from "@/lib/incidents/grouper";
import { readWindow } from "@/lib/subscriptions/events";
import { EMERGENCY_TYPES } from "@/lib/vocabulary";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { danglingReferences, validateEido, validateNenaEido } from "../support/eido-schema";
import { nenaRegistries } from "../support/nena-registries";
import { webhookRequest } from "../support/webhook-request";

/**
 * What a CAD receives while the caller still talks (issue 56): the live tool's words as Mayday's
 * types and APCO codes, a caller on the line never "abandoned", the voice agent and every other
 * agent described, calls joined to their events and API records by `tracking_id`, and each change
 * of a live call sent as `call.updated` in order, the receiver's picture equal to the API's.
 */

const TOOL_SECRET = "tool_secret_handoff_0123456789";
const WEBHOOK_SECRET = "wsec_handoff_0123456789abcdef";
const SAVED = ["ELEVENLABS_TOOL_SECRET", "VOICEAGENT_WEBHOOK_SECRET"] as const;
const saved = Object.fromEntries(SAVED.map((name) => [name, process.env[name]]));
const runId = Date.now().toString(36);

beforeAll(() => {
  process.env.ELEVENLABS_TOOL_SECRET = TOOL_SECRET;
  process.env.VOICEAGENT_WEBHOOK_SECRET = WEBHOOK_SECRET;
  resetConfigForTests();
});

afterAll(() => {
  for (const name of SAVED) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfigForTests();
});

/** One live report; each conversation a caller of its own (the same callback number joins one incident). */
async function report(conversationId: string, args: Record<string, unknown>): Promise<void> {
  const caller = `+1615555${String(parseInt(createHash("sha256").update(conversationId).digest("hex").slice(0, 6), 16) % 10_000).padStart(4, "0")}`;
  const request = new Request("http://localhost/api/live-calls/elevenlabs/report_emergency", {
    method: "POST",
    headers: { "content-type": "application/json", "x-mayday-tool-secret": TOOL_SECRET },
    body: JSON.stringify({ conversation_id: conversationId, caller_id: caller, agent_id: "agent_el_911", ...args }),
  });
  const response = await elevenLabsToolPost(request, { params: Promise.resolve({ tool: "report_emergency" }) });
  expect(response.status).toBe(200);
}

async function apiCall(conversationId: string): Promise<CallRecord> {
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${conversationId}`), { params: Promise.resolve({ id: conversationId }) });
  expect(response.status).toBe(200);
  return (await response.json()) as CallRecord;
}

async function eidoOf(id: string): Promise<Eido> {
  const response = await eidoRoute(apiRequest(`http://localhost/api/incidents/${id}/eido`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Eido;
  expect(validateEido(body) ? [] : validateEido.errors).toEqual([]);
  expect(validateNenaEido(body) ? [] : validateNenaEido.errors).toEqual([]);
  return body;
}

describe("the handoff while the caller talks", () => {
  it("gives every Mayday type an APCO code of NENA's registry, and the live tool's seven words theirs", async () => {
    const registry = new Set(nenaRegistries.incidentTypeCommon);
    for (const type of EMERGENCY_TYPES) {
      expect(incidentTypeCode(type)).toBe(APCO_INCIDENT_TYPES[type]);
      expect(registry.has(incidentTypeCode(type)), type).toBe(true);
    }
    const expected: Record<string, [string, string]> = {
      fire: ["structure_fire", "FSTRU"],
      medical: ["medical_emergency", "SICK"],
      police: ["law_enforcement", "TROUBLE"],
      traffic_accident: ["vehicle_accident", "MVA"],
      natural_disaster: ["natural_disaster", "MAJORINC"],
      hazmat: ["hazardous_materials", "HAZMAT"],
      other: ["unknown", "TROUBLE"],
    };
    for (const [word, [type, code]] of Object.entries(expected)) {
      const conversationId = `conv_words_${word}_${runId}`;
      await report(conversationId, { emergency_type: word, severity: "high", location: `${Object.keys(expected).indexOf(word) + 10} Elm Street, Springfield, IL` });
      const call = await apiCall(conversationId);
      expect(call.emergency_type, word).toBe(type);
      const eido = await eidoOf(call.incident_id);
      expect(eido.incidentComponent.incidentTypeCommonRegistryText, word).toBe(code);
      expect(eido.incidentComponent.incidentTypeInternalCode, word).toBe(type);
    }
    // A post-call event's word is stored as the interface keeps it, and exported by its meaning.
    const event = specCallEvent(`conv_words_post_${runId}`, { location: "77 Oak Street, Springfield, IL" });
    (event.data.analysis.data_collection_results as Record<string, { value: unknown }>).emergency_type.value = "Traffic Accident";
    expect((await webhookPost(webhookRequest(event, { secret: WEBHOOK_SECRET }), undefined)).status).toBe(200);
    const stored = await apiCall(`conv_words_post_${runId}`);
    expect(stored.emergency_type).toBe("traffic_accident");
    expect((await eidoOf(stored.incident_id)).incidentComponent.incidentTypeCommonRegistryText).toBe("MVA");
  });

  it("keeps a live call answered, its agents described, joins it by tracking_id, and sends each change as call.updated in order", async () => {
    const db = await getDb();
    const conversationId = `conv_handoff_${runId}`;
    const before = await readFeedHead(db);

    await report(conversationId, { emergency_type: "fire", severity: "high" });
    let call = await apiCall(conversationId);
    expect(call.on_line).toBe(true);
    let eido = await eidoOf(call.incident_id);
    // Still talking: answered, never abandoned, though the agent has judged nothing yet.
    expect(eido.callComponent.map((component) => component.callStateRegistryText)).toEqual(["callAnswered"]);
    expect(eido.callComponent[0].$id).toBe(call.tracking_id);
    expect(call.tracking_id).toMatch(/^urn:emergency:uid:callid:[0-9a-f]{32}:mayday\.invalid$/);
    expect(call.tracking_id.split(":")[4]).not.toBe(call.incident_id.replace(/-/g, ""));
    expect(danglingReferences(eido)).toEqual([]);
    expect(eido.agentComponent).toEqual([
      expect.objectContaining({ $id: "voiceagent.agent_el_911@mayday.invalid", agentRoleRegistryText: ["Call Taking"], agencyReference: { $ref: "mayday.invalid" } }),
    ]);
    expect(eido.callComponent[0].agentReference).toEqual([{ $ref: "voiceagent.agent_el_911@mayday.invalid" }]);

    // A second report says where; the post-call event ends the call and corrects its type.
    await report(conversationId, { location: "412 Maple Avenue, Springfield, IL", severity: "critical" });
    const postCall = elevenLabsCallEvent(conversationId, { location: "412 Maple Avenue, Springfield, IL", eventTimestamp: Math.floor(Date.now() / 1000) });
    expect((await webhookPost(webhookRequest(postCall, { secret: WEBHOOK_SECRET }), undefined)).status).toBe(200);
    call = await apiCall(conversationId);
    expect(call.on_line).toBeUndefined();
    expect(call.emergency_type).toBe("power_lines_down");
    eido = await eidoOf(call.incident_id);
    expect(eido.callComponent.map((component) => component.callStateRegistryText)).toEqual(["callEnd"]);
    // The incident's type follows its call's corrected value.
    expect(eido.incidentComponent.incidentTypeInternalCode).toBe("power_lines_down");
    const listed = (await (await incidentsRoute(apiRequest("http://localhost/api/incidents?limit=200"), undefined)).json()) as { incidents: { id: string; emergency_type: string }[] };
    expect(listed.incidents.find((incident) => incident.id === call.incident_id)?.emergency_type).toBe("power_lines_down");

    // The receiver: call events of this call, in stamp order, each keeping the call as sent (a call
    // the analysis sent back to the grouper is announced once it is placed again).
    await groupNow();
    const { events } = await readWindow(db, before, 1_000_000);
    const mine = events.filter((event) => "call" in event.data && event.data.call?.conversation_id === conversationId && event.type.startsWith("call."));
    expect(mine[0].type).toBe("call.created");
    expect(mine.slice(1).map((event) => event.type)).toContain("call.updated");
    expect(mine.map((event) => event.change)).toEqual([...mine.map((event) => event.change)].sort((a, b) => a - b));
    const picture = (mine.at(-1)!.data as { call: CallRecord }).call;
    // The receiver's call is the API's record (its listed fields; the detail adds the transcript and history).
    expect(picture).toEqual(callRecordSchema.parse(call));
    // Every event's call joins the EIDO's by tracking_id.
    for (const event of mine) expect((event.data as { call: CallRecord }).call.tracking_id).toBe(eido.callComponent[0].$id);
  });

  it("calls a call that never connected abandoned, and an ended call the agent judged unsuccessful ended", async () => {
    const unsuccessful = specCallEvent(`conv_unsuccessful_${runId}`, { location: "9 Birch Street, Springfield, IL" });
    (unsuccessful.data.analysis as Record<string, unknown>).call_successful = false;
    expect((await webhookPost(webhookRequest(unsuccessful, { secret: WEBHOOK_SECRET }), undefined)).status).toBe(200);
    const call = await apiCall(`conv_unsuccessful_${runId}`);
    expect(call.call_successful).toBe(false);
    expect((await eidoOf(call.incident_id)).callComponent[0].callStateRegistryText).toBe("callEnd");
    // Never connected (the platform's call-initiation failure): abandoned.
    expect(callStateOf({ failure_reason: "no-answer" })).toBe("callAbandoned");
    expect(callStateOf({ failure_reason: "busy", on_line: undefined })).toBe("callAbandoned");
  });
});
