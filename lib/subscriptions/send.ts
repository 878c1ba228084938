import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { getConfig } from "../config";
import { targetGuard } from "./address";

/**
 * One signed POST of one event (Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature). Every secret still valid signs it (space-separated signatures), so a
 * receiver holding either the new or the previous secret verifies it during a rotation. The whole
 * request is bounded by SUBSCRIPTION_TIMEOUT_MS; a 2xx is accepted when its status line arrives
 * (the connection is then closed, the body unread); another answer is read for the delivery log up
 * to SUBSCRIPTION_RESPONSE_LIMIT_BYTES (the connection is closed past it); redirects are not followed.
 */

export interface OutgoingEvent {
  id: string;
  type: string;
  timestamp: Date;
  body: string;
}

export interface SendOutcome {
  ok: boolean;
  /** The receiver's status; null when it never answered. */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

export const signatureOf = (secrets: readonly string[], event: OutgoingEvent) =>
  secrets.map((secret) => new Webhook(secret).sign(event.id, event.timestamp, event.body)).join(" ");

/** What a receiver's answer said, for the delivery log: short, one line. */
const excerpt = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 200);

export async function sendEvent(target: string, secrets: readonly string[], event: OutgoingEvent): Promise<SendOutcome> {
  const { SUBSCRIPTION_TIMEOUT_MS: timeoutMs, SUBSCRIPTION_RESPONSE_LIMIT_BYTES: limit } = getConfig();
  const started = performance.now();
  const done = (outcome: Omit<SendOutcome, "latencyMs">): SendOutcome => ({ ...outcome, latencyMs: Math.round(performance.now() - started) });
  const url = new URL(target);
  try {
    await targetGuard.checkLiteral(url);
  } catch (error) {
    return done({ ok: false, status: null, error: error instanceof Error ? error.message : String(error) });
  }
  const body = Buffer.from(event.body, "utf8");
  const headers = {
    "content-type": "application/json",
    "content-length": String(body.length),
    "user-agent": "Mayday-Webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(event.timestamp.getTime() / 1000)),
    "webhook-signature": signatureOf(secrets, event),
    "mayday-event-type": event.type,
  };
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(done(outcome));
    };
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, { method: "POST", headers, lookup: targetGuard.lookup, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      // A 2xx is a delivery once its status line arrives: its body is never waited for.
      if (status >= 200 && status < 300) {
        finish({ ok: true, status, error: null });
        return;
      }
      const chunks: Buffer[] = [];
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > limit) {
          finish({ ok: false, status, error: `answer cut off after ${limit} bytes` });
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => finish({ ok: false, status, error: `HTTP ${status}: ${excerpt(Buffer.concat(chunks).toString("utf8"))}` }));
      response.on("error", (error) => finish({ ok: false, status, error: error.message }));
    });
    const deadline = setTimeout(() => finish({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    request.on("error", (error) => finish({ ok: false, status: null, error: error.message }));
    request.end(body);
  });
}
