import { isIP } from "node:net";

/**
 * The address a request came from, as the key of per-client limits.
 *
 * Route handlers see no socket. The app's server (scripts/server.ts) therefore appends the socket
 * peer to `x-forwarded-for`, as every proxy hop does, so the rightmost entry is always whoever
 * connected to us. Each of the TRUST_PROXY proxies in front appended the address it saw, so the
 * client is the entry TRUST_PROXY places left of the rightmost one; anything further left was
 * written by the client itself and is never used.
 */
export function clientAddress(headers: Headers, trustProxy: number): string {
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  if (hops.length === 0) return "unknown";
  return limitKey(hops[Math.max(0, hops.length - 1 - trustProxy)]);
}

/** `x-forwarded-for` with the socket peer appended: what scripts/server.ts hands to Next. */
export function appendPeer(forwardedFor: string | string[] | undefined, peer: string | undefined): string {
  const previous = [forwardedFor ?? []].flat().join(", ");
  const address = peer ?? "unknown";
  return previous ? `${previous}, ${address}` : address;
}

/**
 * IPv4 addresses as they are; IPv6 by their /64 network, since one subscriber is routinely handed a
 * whole /64 and could otherwise take a fresh limit per address. Anything else is one shared key.
 */
function limitKey(hop: string): string {
  const address = hop.replace(/^\[(.*)\](:\d+)?$/, "$1").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind === 6) return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
  return "unknown";
}

function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const written = [...groups(head), ...(tail === undefined ? [] : groups(tail))];
  const zeros = tail === undefined ? [] : Array(8 - written.length).fill("0");
  return [...groups(head), ...zeros, ...groups(tail)].map((group) => group.replace(/^0+(?=.)/, ""));
}
