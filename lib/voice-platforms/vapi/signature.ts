import { createHmac } from "node:crypto";
import type { Config } from "../../config";
import { sameSecret } from "../fields";
import { invalidSignature, matches, type SignatureCheck } from "../signature";

/** How far an HMAC credential's x-timestamp may be from our clock. */
export const VAPI_SIGNATURE_TOLERANCE_MS = 5 * 60_000;



/** The headers of Vapi's HMAC credential with its defaults (sha256, hex, `{timestamp}.{body}`); for tests and the bench. */
export function vapiHmacHeaders(secret: string, rawBody: Buffer | string, timestampMs = Date.now()): Record<string, string> {
  const timestamp = String(timestampMs);
  return {
    "x-timestamp": timestamp,
    "x-signature": createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex"),
  };
}

function bearerToken(authorization: string | null): string | null {
  const match = authorization === null ? null : /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return match ? match[1] : null;
}

/**
 * Vapi's credentials (POST /api/voiceagent-webhook/vapi and the live tools), as Vapi's server authentication sends them,
 * all keyed by VAPI_WEBHOOK_SECRET: an HMAC credential (`x-signature`: hex HMAC-SHA256 of
 * `<x-timestamp>.<raw body>`, optionally prefixed `sha256=`, the timestamp within 5 minutes), or
 * the secret itself (`x-vapi-secret`, the legacy `server.secret`; or a Bearer Token credential).
 */
export function startVapiCheck(headers: Headers, config: Config, nowMs = Date.now()): SignatureCheck {
  const secret = config.VAPI_WEBHOOK_SECRET;
  if (!secret) throw invalidSignature("VAPI_WEBHOOK_SECRET is not configured: no Vapi request can be verified");
  const signature = headers.get("x-signature");
  if (signature !== null) {
    const timestamp = headers.get("x-timestamp")?.trim() ?? "";
    if (!/^\d{1,15}$/.test(timestamp)) throw invalidSignature("x-timestamp must be a Unix time");
    // Seconds or milliseconds, told apart by their size (seconds have 10 digits until 2286).
    const sentMs = Number(timestamp) * (timestamp.length > 11 ? 1 : 1000);
    if (Math.abs(nowMs - sentMs) > VAPI_SIGNATURE_TOLERANCE_MS) {
      throw invalidSignature("Signature timestamp is more than 5 minutes from now");
    }
    const hmac = createHmac("sha256", secret).update(`${timestamp}.`);
    return {
      verified: true,
      update: (chunk) => hmac.update(chunk),
      verify() {
        if (!matches(hmac.digest(), signature.trim().replace(/^sha256=/i, ""))) throw invalidSignature("Signature does not match");
      },
    };
  }
  const sent = headers.get("x-vapi-secret") ?? headers.get("x-vapi-signature") ?? bearerToken(headers.get("authorization"));
  if (sent === null) throw invalidSignature("No credential: x-signature, x-vapi-secret or Authorization: Bearer is required");
  if (!sameSecret(sent, secret)) throw invalidSignature("Credential does not match");
  // The secret itself: it proves the sender, not the body (docs/webhook.md, "Vapi").
  return { verified: true, update() {}, verify() {} };
}
