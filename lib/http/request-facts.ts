import { getConfig } from "../config";
import { clientAddress } from "./client-address";

/** Secure cookies only over HTTPS, so a plain-HTTP deployment on a closed network keeps its sessions. */
export const isHttps = (request: Request) =>
  new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";

/** The client's address as rate limits and the audit trail see it. */
export const requestAddress = (request: Request) => clientAddress(request.headers, getConfig().TRUST_PROXY);

/**
 * Whether the client reached us over HTTPS, for Strict-Transport-Security: this server's own socket
 * was TLS, or the outermost of the TRUST_PROXY proxies in front said so in X-Forwarded-Proto (the
 * entry TRUST_PROXY places from the right where proxies append; the one entry where they set it).
 * With no proxy trusted the header is the client's own word and is not read.
 */
export function reachedOverHttps(encrypted: boolean, forwardedProto: string | string[] | undefined, trustProxy: number): boolean {
  if (encrypted) return true;
  if (trustProxy === 0 || forwardedProto === undefined) return false;
  const hops = [forwardedProto].flat().join(",").split(",").map((hop) => hop.trim().toLowerCase());
  return hops[Math.max(0, hops.length - trustProxy)] === "https";
}
