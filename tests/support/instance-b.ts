/**
 * A second app instance, in a process of its own on the same PostgreSQL: it receives one webhook
 * call through the real route handler, then exits.
 * Usage: tsx tests/support/instance-b.ts <conversation_id> [event time, unix seconds]
 */
import { POST } from "@/app/api/voiceagent-webhook/route";
import { closeDb } from "@/lib/db/client";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "./webhook-request";

async function main(conversationId: string, eventTimestamp?: number): Promise<void> {
  const event = specCallEvent(conversationId, { location: "Mission District, San Francisco", eventTimestamp });
  const response = await POST(webhookRequest(event), undefined);
  await closeDb();
  if (response.status !== 200) throw new Error(await response.text());
}

main(process.argv[2], process.argv[3] ? Number(process.argv[3]) : undefined).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
