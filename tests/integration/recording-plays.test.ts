import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as recordingRoute } from "@/app/api/calls/[id]/recording/route";
import { POST as webhookRoute } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import { uuid7 } from "@/lib/db/uuid7";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { type SignedInPerson, signedIn } from "@/tests/support/people";
import { webhookRequest } from "@/tests/support/webhook-request";
import { withWebhookSecret } from "@/tests/support/webhook-secret";

/**
 * "Who listened" must not depend on how the player asks: a person's playing of a recording is
 * audited once per listening window, whichever byte range comes first, and once only however many
 * range requests follow or arrive together.
 */

const SECRET = "wsec_recording_plays";
withWebhookSecret(SECRET);

const conversationId = `conv_recording_plays_${randomInt(1_000_000)}`;
const AUDIO = Buffer.from("ID3 a recording long enough to seek in");

function play(person: SignedInPerson, range?: string) {
  const headers: Record<string, string> = { cookie: person.cookie, "sec-fetch-site": "same-origin" };
  if (range) headers.range = range;
  const request = new Request(`http://localhost/api/calls/${conversationId}/recording`, { headers });
  return recordingRoute(request, { params: Promise.resolve({ id: conversationId }) });
}

async function plays(person: SignedInPerson): Promise<{ after: unknown }[]> {
  return (await getDb()).auditEvent.findMany({
    where: { action: "call.recording_played", targetId: conversationId, actorId: person.user.id },
    select: { after: true },
  });
}

beforeAll(async () => {
  expect((await webhookRoute(webhookRequest(specCallEvent(conversationId), { secret: SECRET }), undefined)).status).toBe(200);
  const audio = { type: "post_call_audio", event_timestamp: 1_767_250_000, data: { agent_id: "a", conversation_id: conversationId, full_audio: AUDIO.toString("base64") } };
  expect((await webhookRoute(webhookRequest(audio, { secret: SECRET }), undefined)).status).toBe(200);
});

describe("a recording's plays in the audit trail", () => {
  it("audits a play that starts mid-recording, then no later range request of the same window", async () => {
    const listener = await signedIn("dispatcher");
    const first = await play(listener, "bytes=10-20");
    expect(first.status).toBe(206);
    expect(Buffer.from(await first.arrayBuffer())).toEqual(AUDIO.subarray(10, 21));
    expect(await plays(listener)).toEqual([{ after: { window_start: expect.any(Number) } }]);
    for (const range of ["bytes=0-", "bytes=5-", "bytes=-4", undefined]) {
      const response = await play(listener, range);
      expect(response.status).toBeLessThan(300);
      await response.arrayBuffer();
    }
    expect(await plays(listener)).toHaveLength(1);
  });

  it("audits each person on their own, and range requests arriving together once", async () => {
    const [one, other] = await Promise.all([signedIn("viewer"), signedIn("dispatcher")]);
    const responses = await Promise.all([...Array(8)].map((_, index) => play(index % 2 === 0 ? one : other, `bytes=${index}-`)));
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 206));
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    expect(await plays(one)).toHaveLength(1);
    expect(await plays(other)).toHaveLength(1);
  });

  it("audits a play again in a later window: an earlier window's row does not hide it", async () => {
    const listener = await signedIn("dispatcher");
    // A row as a play of long ago left it (the window starting at the epoch).
    await (await getDb()).$executeRaw`
      INSERT INTO audit_events (id, actor_kind, actor_id, actor_name, action, target_kind, target_id, after)
      VALUES (${uuid7()}, 'user', ${listener.user.id}, ${listener.user.name}, 'call.recording_played', 'call', ${conversationId}, '{"window_start": 0}')`;
    await (await play(listener, "bytes=3-")).arrayBuffer();
    const windows = (await plays(listener)).map(({ after }) => (after as { window_start: number }).window_start);
    expect(windows).toHaveLength(2);
    expect(windows.filter((start) => start > 0)).toHaveLength(1);
  });
});
