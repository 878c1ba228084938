/**
 * Posts one realistic, signed post-call event (ElevenLabs' form) to a running Mayday, as the
 * voice-agent platform would. For people wiring up their agent: see README "Voice-agent webhook".
 *
 *   npx tsx scripts/send-test-call.ts [--url http://localhost:3000] [--secret <secret>]
 *     [--location "Mission District, San Francisco"] [--conversation-id conv_...] [--spec-form]
 *
 * The secret defaults to VOICEAGENT_WEBHOOK_SECRET; without one the request goes unsigned.
 */
import { parseArgs } from "node:util";
import { elevenLabsCallEvent, specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "../lib/voice-platforms/elevenlabs/signature";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.MAYDAY_URL ?? "http://localhost:3000" },
    secret: { type: "string", default: process.env.VOICEAGENT_WEBHOOK_SECRET },
    location: { type: "string" },
    "conversation-id": { type: "string" },
    "spec-form": { type: "boolean", default: false },
  },
});

async function main(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const conversationId = values["conversation-id"] ?? `conv_test_${now}_${Math.random().toString(36).slice(2, 8)}`;
  const options = { location: values.location, eventTimestamp: now };
  const event = values["spec-form"] ? specCallEvent(conversationId, options) : elevenLabsCallEvent(conversationId, options);
  const body = JSON.stringify(event);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (values.secret) headers["elevenlabs-signature"] = signatureHeader(values.secret, body, now);
  const target = new URL("/api/voiceagent-webhook", values.url);
  const response = await fetch(target, { method: "POST", headers, body, signal: AbortSignal.timeout(30_000) });
  console.log(`POST ${target} (${values.secret ? "signed" : "unsigned"}, conversation ${conversationId})`);
  console.log(`${response.status} ${await response.text()}`);
  if (!response.ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`send-test-call: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
