import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { callPayloadKey } from "@/lib/intake/receive";
import { locateCall } from "@/lib/intake/locate";
import { storeEach } from "@/lib/intake/write";
import { elevenLabsCall } from "@/lib/voice-platforms/elevenlabs/adapter";
import { parseEvent } from "@/lib/voice-platforms/elevenlabs/payload";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";
import { withWebhookSecret } from "../support/webhook-secret";

const SECRET = "call-writer-secret";
withWebhookSecret(SECRET);

const runId = randomInt(1_000_000);

async function prepared(conversationId: string) {
  const parsed = parseEvent(specCallEvent(conversationId));
  if (parsed.kind !== "call") throw new Error("not a call event");
  return locateCall(elevenLabsCall(parsed.event), callPayloadKey(conversationId, parsed.event.event_timestamp));
}

describe("webhook calls stored together (group commit)", () => {
  it("parallel webhooks share statements, each answered once its call is committed", async () => {
    const ids = Array.from({ length: 40 }, (_, index) => `conv_writer_${runId}_${index}`);
    const responses = await Promise.all(ids.map((id) => webhook(webhookRequest(specCallEvent(id), { secret: SECRET }), undefined)));
    expect(responses.map((response) => response.status)).toEqual(ids.map(() => 200));
    // Rows written by one transaction share its id (xmin): fewer transactions than calls.
    const [{ rows, transactions }] = await (await getDb()).$queryRaw<{ rows: number; transactions: number }[]>`
      SELECT count(*)::int AS rows, count(DISTINCT xmin::text)::int AS transactions
      FROM calls WHERE conversation_id IN (${Prisma.join(ids)})`;
    expect(rows).toBe(40);
    expect(transactions).toBeLessThan(40);
  });

  it("a call the database refuses fails alone: the rest of its batch is stored", async () => {
    const good = await Promise.all([1, 2, 3].map((n) => prepared(`conv_writer_${runId}_ok_${n}`)));
    const refused = await prepared(`conv_writer_${runId}_refused`);
    // Beyond the integer column: the batch's statement fails, then this call alone.
    refused.call.durationSecs = 2 ** 40;
    const outcomes = await storeEach([good[0], refused, good[1], good[2]]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    const stored = await (await getDb()).call.findMany({
      where: { conversationId: { startsWith: `conv_writer_${runId}_` } },
      select: { conversationId: true },
    });
    const names = stored.map((row) => row.conversationId);
    expect(names).toEqual(expect.arrayContaining(good.map((entry) => entry.call.conversationId)));
    expect(names).not.toContain(refused.call.conversationId);
  });
});
