import { apiRequest } from "@/tests/support/auth";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { GET as listRoute } from "@/app/api/calls/route";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { callDetailSchema, type CallList } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";
import { withWebhookSecret } from "../support/webhook-secret";

/**
 * The full transcript (docs/calls.md, "Transcript"): stored with the call at intake, shown turn by
 * turn in the detail, and searched by GET /api/calls?q= with the summary and the location.
 */
const SECRET = "wsec_transcript";
withWebhookSecret(SECRET);
const run = `t${Date.now().toString(36)}`;
const eleven = `conv_${run}_eleven`;
const spec = `conv_${run}_spec`;
const long = `conv_${run}_long`;

async function deliver(body: unknown) {
  const response = await POST(webhookRequest(body, { secret: SECRET }), undefined);
  expect(response.status).toBe(200);
}

async function detail(id: string) {
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${id}`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return callDetailSchema.parse(await response.json());
}

async function search(q: string, extra = ""): Promise<{ status: number; body: CallList & Record<string, unknown> }> {
  const response = await listRoute(apiRequest(`http://localhost/api/calls?q=${encodeURIComponent(q)}&limit=1000${extra}`), undefined);
  return { status: response.status, body: await response.json() };
}

const ids = (list: CallList) => list.calls.map((call) => call.conversation_id).sort();

beforeAll(async () => {
  await deliver(elevenLabsCallEvent(eleven));
  const documented = specCallEvent(spec) as { data: { transcript: unknown[] } };
  await deliver(documented);
  const turns = Array.from({ length: 500 }, (_, index) => ({
    role: index % 2 === 0 ? "agent" : "user",
    message: index === 377 ? `The ${run} warehouse roof collapsed onto the loading dock` : `Turn ${index} of a long call.`,
    time_in_call_secs: index * 2,
  }));
  const longEvent = elevenLabsCallEvent(long) as { data: { transcript: unknown[] } };
  longEvent.data.transcript = turns;
  await deliver(longEvent);
});

describe("the transcript in the call detail", () => {
  it("shows ElevenLabs' turns with speaker, time in call and text, in order", async () => {
    const call = await detail(eleven);
    const sent = (elevenLabsCallEvent(eleven).data.transcript as { role: string; message: string; time_in_call_secs: number }[]);
    expect(call.transcript).toEqual(sent.map((turn) => ({ speaker: turn.role, time_in_call_secs: turn.time_in_call_secs, text: turn.message })));
    expect(call.transcript.length).toBe(call.transcript_length);
  });

  it("makes the documented form's Unix times relative to the first turn", async () => {
    const call = await detail(spec);
    const sent = (specCallEvent(spec).data.transcript as { speaker: string; text: string; timestamp: number }[]);
    const first = Math.min(...sent.map((turn) => turn.timestamp));
    expect(call.transcript).toEqual(sent.map((turn) => ({ speaker: turn.speaker, time_in_call_secs: turn.timestamp - first, text: turn.text })));
  });

  it("keeps all 500 turns of a long conversation", async () => {
    const call = await detail(long);
    expect(call.transcript).toHaveLength(500);
    expect(call.transcript[377].text).toContain("warehouse roof collapsed");
    expect(call.transcript[499]).toEqual({ speaker: "user", time_in_call_secs: 998, text: "Turn 499 of a long call." });
  });

  it("replaces the turns when the platform delivers the call again", async () => {
    const again = elevenLabsCallEvent(eleven) as { data: { transcript: unknown[] } };
    again.data.transcript = [{ role: "user", message: `Redelivered ${run} words`, time_in_call_secs: 1 }];
    await deliver(again);
    expect((await detail(eleven)).transcript).toEqual([{ speaker: "user", time_in_call_secs: 1, text: `Redelivered ${run} words` }]);
    expect(ids((await search(`redelivered ${run}`)).body)).toEqual([eleven]);
    await deliver(elevenLabsCallEvent(eleven));
    expect((await search(`redelivered ${run}`)).body.calls).toEqual([]);
  });

  it("reads the turns of a call stored before call_transcripts from its archived payload", async () => {
    const id = `conv_${run}_older`;
    await deliver(elevenLabsCallEvent(id));
    const stored = await detail(id);
    // As a call stored before the table existed: no row of its own.
    await (await getDb()).$executeRaw`DELETE FROM call_transcripts WHERE call_id = (SELECT id FROM calls WHERE conversation_id = ${id})`;
    expect((await detail(id)).transcript).toEqual(stored.transcript);
    expect(stored.transcript).toHaveLength(3);
  });
});

describe("GET /api/calls?q=", () => {
  it("finds a phrase the caller said deep in a transcript, case-insensitively, and echoes q", async () => {
    const { status, body } = await search(`${run.toUpperCase()} WAREHOUSE ROOF`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([long]);
    expect(body.pagination.total).toBe(1);
    expect(body.filters.q).toBe(`${run.toUpperCase()} WAREHOUSE ROOF`);
  });

  it("matches the summary and the location as well as the transcript", async () => {
    // Words of the summary only ("Caller reported downed power lines sparking on Music Row...").
    const bySummary = await search("downed power lines sparking");
    expect(ids(bySummary.body)).toEqual(expect.arrayContaining([eleven, long]));
    expect(ids(bySummary.body)).not.toContain(spec);
    // Words of the location only ("1200 Sunset Blvd, Pacific Palisades").
    const byLocation = await search("sunset blvd, pacific");
    expect(ids(byLocation.body)).toContain(spec);
    expect(ids(byLocation.body)).not.toContain(eleven);
  });

  it("takes % and _ literally, and combines with the other filters", async () => {
    expect((await search(`${run}%roof`)).body.calls).toEqual([]);
    expect((await search(`${run} warehouse`, "&severity=moderate&emergency_type=none_such")).body.calls).toEqual([]);
  });

  it("searches a transcript's first 100,000 characters, and the detail keeps every turn", async () => {
    const id = `conv_${run}_huge`;
    const event = elevenLabsCallEvent(id) as { data: { transcript: unknown[] } };
    // 150 turns of 1,000 characters: the first phrase is within the searched text, the last beyond it.
    event.data.transcript = Array.from({ length: 150 }, (_, index) => ({
      role: "user",
      message: `${index === 0 ? `early ${run} phrase` : index === 149 ? `late ${run} phrase` : "filler"} `.padEnd(1000, "x"),
      time_in_call_secs: index,
    }));
    await deliver(event);
    expect((await detail(id)).transcript).toHaveLength(150);
    expect(ids((await search(`early ${run} phrase`)).body)).toEqual([id]);
    expect((await search(`late ${run} phrase`)).body.calls).toEqual([]);
  });

  it("refuses a q shorter than 3 or longer than 200 characters", async () => {
    for (const q of ["ab", "x".repeat(201)]) {
      const { status, body } = await search(q);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: "Invalid parameter", error_code: "INVALID_PARAMETER" });
    }
  });
});
