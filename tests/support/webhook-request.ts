import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";

export interface PostOptions {
  secret?: string;
  /** Signature timestamp (Unix seconds); default now. */
  signedAt?: number;
  headers?: Record<string, string>;
}

/** A request as the platform sends it, signed when a secret is given. */
export function webhookRequest(body: unknown, options: PostOptions = {}): Request {
  // A Buffer goes as it is: bytes that are not valid UTF-8 included.
  const raw = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.secret) headers["elevenlabs-signature"] = signatureHeader(options.secret, raw, options.signedAt);
  return new Request("http://localhost/api/voiceagent-webhook", { method: "POST", headers, body: raw as BodyInit });
}
