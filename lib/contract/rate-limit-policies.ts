import type { RateLimitPolicy } from "../rate-limit/types";

const MINUTE = 60_000;

/**
 * The rate-limit policies endpoints name; endpoints naming the same policy share one budget per
 * client. A voice platform's webhook declares its own in its folder (lib/voice-platforms/<name>/endpoints.ts).
 */
export const rateLimitPolicies = {
  /** The listing, one call and its status changes. */
  calls: { bucket: "calls", limit: 1000, windowMs: MINUTE, whenStoreDown: "local" },
  // Each request may write 1000 calls: with the shared count gone, refusing is the safe answer.
  simulate: { bucket: "simulate", limit: 100, windowMs: MINUTE, whenStoreDown: "refuse" },
  // ElevenLabs' webhook. A refused delivery may be a lost emergency call: never refuse for want of a counter.
  webhook: { bucket: "webhook", limit: 1000, windowMs: MINUTE, whenStoreDown: "allow" },
  // The voice agents' live tools (lib/on-the-line): a few calls per call in progress.
  liveTools: { bucket: "live-tools", limit: 3000, windowMs: MINUTE, whenStoreDown: "allow" },
  // Where a password can be tried without holding one: few tries per client (and per account: lib/access/session.ts).
  session: { bucket: "session", limit: 10, windowMs: MINUTE, whenStoreDown: "local" },
  // Sign-in through the identity provider: two redirects per sign-in, no password to guess here.
  sso: { bucket: "sso", limit: 30, windowMs: MINUTE, whenStoreDown: "local" },
  // People, keys and the audit trail: administrators' pages.
  admin: { bucket: "admin", limit: 300, windowMs: MINUTE, whenStoreDown: "local" },
  // Trainers' controls and the dashboard's progress polling (every few seconds per open dashboard).
  exercises: { bucket: "exercises", limit: 300, windowMs: MINUTE, whenStoreDown: "local" },
} satisfies Record<string, RateLimitPolicy>;
