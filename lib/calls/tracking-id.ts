import { createHash } from "node:crypto";
import { getConfig } from "../config";

/**
 * A call's NENA Call Identifier (NENA-STA-021.1a; urn:emergency:uid:callid:<id>:<domain>): what the
 * call's EIDO `callComponent.$id` is and what its API record and events carry as `tracking_id`, so a
 * receiver joins the three on one value (docs/integrations.md, "Joining calls"). The unique string
 * is the first 32 hex digits of the SHA-256 of the conversation id: NENA's string takes at most 32
 * letters and digits, conversation ids are longer and hold other characters, and an incident's own
 * identifier (its id without hyphens) must not read the same as its first call's.
 */
export function callTrackingId(conversationId: string, domain = getConfig().CENTRE_DOMAIN): string {
  const unique = createHash("sha256").update(conversationId).digest("hex").slice(0, 32);
  return `urn:emergency:uid:callid:${unique}:${domain}`;
}
