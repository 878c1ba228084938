import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "../lib/voice-platforms/elevenlabs/signature";

/** One unsigned voice-agent call (a critical structure fire), happening now unless `at` says when, posted to a bench server's webhook. */
export async function postCall(base: string, id: string, location = "Mission District, San Francisco", at = Date.now()): Promise<void> {
  const event = specCallEvent(id, { location, eventTimestamp: Math.floor(at / 1000) });
  const response = await fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
    body: JSON.stringify(event),
  });
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
}

/**
 * A signed webhook body posted to a bench server (VOICEAGENT_WEBHOOK_SECRET = `secret`), from one of
 * 200 documentation addresses chosen by `client` behind a trusted proxy (TRUST_PROXY=1): the limits
 * stay on, not the load. Resolves once the answer is read; throws unless it is 200.
 */
export async function postSigned(base: string, secret: string, payload: string, client = 0): Promise<void> {
  const response = await fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "voiceagent-signature": signatureHeader(secret, payload),
      "x-forwarded-for": `198.51.100.${1 + (client % 200)}`,
    },
    body: payload,
  });
  const answer = await response.text();
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${answer}`);
}
