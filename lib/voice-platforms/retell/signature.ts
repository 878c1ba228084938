import { createHmac } from "node:crypto";
import type { Config } from "../../config";
import { invalidSignature, matches, type SignatureCheck } from "../signature";

export const RETELL_SIGNATURE_HEADER = "x-retell-signature";

export const RETELL_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** A header value as Retell sends it (retell-sdk's `sign`); for tests and the bench. */
export function retellSignatureHeader(apiKey: string, rawBody: Buffer | string, timestampMs = Date.now()): string {
  return `v=${timestampMs},d=${createHmac("sha256", apiKey).update(rawBody).update(String(timestampMs)).digest("hex")}`;
}

/**
 * Retell's credential (POST /api/voiceagent-webhook/retell and the live tools). `x-retell-signature: v=<Unix ms>,d=<hex HMAC-SHA256>`,
 * keyed by the Retell API key (RETELL_API_KEY) over the raw body followed by the timestamp's
 * digits, as retell-sdk's `Retell.verify` computes it; the timestamp within 5 minutes of ours.
 */
export function startRetellCheck(headers: Headers, config: Config, nowMs = Date.now()): SignatureCheck {
  const key = config.RETELL_API_KEY;
  if (!key) throw invalidSignature("RETELL_API_KEY is not configured: no Retell request can be verified");
  const header = headers.get(RETELL_SIGNATURE_HEADER);
  if (header === null) throw invalidSignature(`${RETELL_SIGNATURE_HEADER} is required`);
  const match = /^v=(\d{1,15}),d=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) throw invalidSignature(`${RETELL_SIGNATURE_HEADER} must be v=<timestamp>,d=<signature>`);
  const [, timestamp, digest] = match;
  if (Math.abs(nowMs - Number(timestamp)) > RETELL_SIGNATURE_TOLERANCE_MS) {
    throw invalidSignature("Signature timestamp is more than 5 minutes from now");
  }
  const hmac = createHmac("sha256", key);
  return {
    verified: true,
    update: (chunk) => hmac.update(chunk),
    verify() {
      if (!matches(hmac.update(timestamp).digest(), digest)) throw invalidSignature("Signature does not match");
    },
  };
}
