import { specCallEvent } from "../lib/webhook/sample-events";

/** One unsigned voice-agent call, happening now, posted to a bench server's webhook. */
export async function postCall(base: string, id: string): Promise<void> {
  const event = specCallEvent(id, { location: "Mission District, San Francisco", eventTimestamp: Math.floor(Date.now() / 1000) });
  const response = await fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
    body: JSON.stringify(event),
  });
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
}
