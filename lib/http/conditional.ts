import { createHash } from "node:crypto";

/**
 * Conditional reads (RFC 9110, 13.1.2): a JSON GET answer carries an ETag, its bytes' hash, and a
 * request whose If-None-Match names it is answered 304 with no body. The answer is still worked
 * out (the server owns the truth and keeps no copy); what is saved is the network: a dashboard
 * reads its views again as changes come, and most reads find a view unchanged (docs/interface.md,
 * "Conditional reads").
 */

/** The answer's validator: weak, as a body re-encoded (gzip or not) is still the same answer. */
export function entityTag(body: Uint8Array | string): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** Whether If-None-Match names the ETag (weak comparison, as RFC 9110 asks for GET and HEAD). */
export function matchesEntityTag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** Whether a request may be answered 304: GET and HEAD only. */
export const readsConditionally = (method: string | undefined) => method === "GET" || method === "HEAD";
