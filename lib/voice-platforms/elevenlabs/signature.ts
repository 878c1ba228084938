import { createHmac } from "node:crypto";
import { invalidSignature, matches, type SignatureCheck, unchecked } from "../signature";

/** The platform's header and ElevenLabs' own name for it; both carry `t=<unix>,v0=<hex>`. */
export const SIGNATURE_HEADERS = ["voiceagent-signature", "elevenlabs-signature"] as const;

export const MAX_SIGNATURE_AGE_SECS = 30 * 60;
/** Clock skew tolerated for a timestamp ahead of ours. */
export const MAX_SIGNATURE_FUTURE_SECS = 5 * 60;

export function signatureHeaderOf(headers: Headers): string | null {
  for (const name of SIGNATURE_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return value;
  }
  return null;
}


interface ParsedHeader {
  timestamp?: string;
  signatures: string[];
}

function parseHeader(header: string): ParsedHeader {
  const parsed: ParsedHeader = { signatures: [] };
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t") parsed.timestamp = value;
    else if (key === "v0") parsed.signatures.push(value.replace(/^sha256=/i, ""));
  }
  return parsed;
}

/** The signature the platform computes: lowercase hex HMAC-SHA256 over `<t>.<raw body>`. */
export function computeSignature(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** A header value as the platform sends it; for tests, the test-call script and the bench. */
export function signatureHeader(secret: string, rawBody: Buffer | string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v0=${computeSignature(secret, timestamp, rawBody)}`;
}


export interface SignaturePolicy {
  secret?: string;
  /** Reject requests that carry no signature header at all. */
  required: boolean;
}



/**
 * Starts checking the signature over the raw bytes as received (before any JSON parsing): the
 * header's form and age are checked at once, so a stale or malformed signature is refused before
 * the body is read. With no secret configured a header cannot be checked and the request is
 * accepted (docs/webhook.md, "Signature"); the config refuses VOICEAGENT_REQUIRE_SIGNATURE without a secret,
 * so "required" always has one.
 */
export function startSignatureCheck(
  header: string | null,
  policy: SignaturePolicy,
  nowSecs = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (header === null) {
    if (policy.required) throw invalidSignature("Signature header is required");
    return unchecked;
  }
  if (!policy.secret) return unchecked;
  const { timestamp, signatures } = parseHeader(header);
  if (timestamp === undefined || signatures.length === 0) {
    throw invalidSignature("Signature header must contain t=<timestamp> and v0=<signature>");
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw invalidSignature("Signature timestamp is not a Unix time");
  const age = nowSecs - Number(timestamp);
  if (age > MAX_SIGNATURE_AGE_SECS) throw invalidSignature("Signature timestamp is older than 30 minutes");
  if (age < -MAX_SIGNATURE_FUTURE_SECS) throw invalidSignature("Signature timestamp is in the future");
  const hmac = createHmac("sha256", policy.secret).update(`${timestamp}.`);
  return {
    verified: true,
    update: (chunk) => hmac.update(chunk),
    verify() {
      const expected = hmac.digest();
      // Check every v0 part (several are sent while a secret is rotated); any match passes.
      const results = signatures.map((candidate) => matches(expected, candidate));
      if (!results.includes(true)) throw invalidSignature("Signature does not match");
    },
  };
}

/** Checks the signature of a body held whole (see startSignatureCheck). */
export function verifySignature(
  header: string | null,
  rawBody: Buffer,
  policy: SignaturePolicy,
  nowSecs = Math.floor(Date.now() / 1000),
): void {
  const check = startSignatureCheck(header, policy, nowSecs);
  check.update(rawBody);
  check.verify();
}
