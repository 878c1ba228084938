import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Server-side request forgery: a URL that came from outside (a subscription's target, a
 * platform's recording link) must not reach the service's own network (loopback, private ranges,
 * link-local with the cloud metadata address, carrier-grade NAT, multicast and reserved ranges)
 * unless its setting allows it. A request checks the host first and connects to the very address
 * that was checked (the guard's `lookup`), so a name that changes its answer between the check and
 * the connection (DNS rebinding) cannot slip through.
 *
 * IPv4-mapped IPv6 (::ffff:a.b.c.d, any spelling) is the IPv4 address itself on a dual-stack
 * socket: BlockList judges it by the IPv4 rules. Every other IPv6 form that carries an IPv4 address
 * for a relay or translator to reach (IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo) is
 * refused whole, whatever it carries: decoding each (Teredo's is obfuscated, NAT64's local prefix
 * may place it at several offsets) would be more code to get wrong for targets no integration needs.
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  // Unspecified, loopback and IPv4-compatible (deprecated), and IPv4-translated (RFC 2765).
  ["::", 96],
  ["::ffff:0:0:0", 96],
  // NAT64: the well-known and the local-use prefixes (RFC 6052, RFC 8215).
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  // Teredo (RFC 4380) and 6to4 (RFC 3056).
  ["2001::", 32],
  ["2002::", 16],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** True for an address outside requests may not reach (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true;
}

/** A URL's host as an address or name (brackets of an IPv6 literal removed). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, loopback or link-local address`);
    this.name = "RefusedAddressError";
  }
}

export interface AddressGuard {
  /** The URL's host resolves, and to no private address (RefusedAddressError when to any). */
  check(url: URL): Promise<void>;
  /** node:http's `lookup` for a request: the checked address, or the refusal as the request's error. */
  lookup: LookupFunction;
  /** node:net connects to an address literal without a lookup: a request checks it itself first. */
  checkLiteral(url: URL): Promise<void>;
}

/** The guard of one kind of outbound request; `allowsPrivate` reads its setting at each check. */
export function addressGuard(allowsPrivate: () => boolean): AddressGuard {
  /** Every address of `host`, refused as a whole when any of them is private. */
  const resolve = async (host: string) => {
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
    if (!allowsPrivate()) {
      const refused = addresses.find(({ address }) => isPrivateAddress(address));
      if (refused) throw new RefusedAddressError(host, refused.address);
    }
    return addresses;
  };
  return {
    async check(url) {
      await resolve(hostOf(url));
    },
    lookup: (hostname, options, callback) => {
      resolve(hostname.replace(/^\[(.*)\]$/, "$1")).then(
        (addresses) => {
          if (options.all) callback(null, addresses);
          else callback(null, addresses[0].address, addresses[0].family);
        },
        (error: NodeJS.ErrnoException) => callback(error, "", 0),
      );
    },
    async checkLiteral(url) {
      const host = hostOf(url);
      if (isIP(host)) await resolve(host);
    },
  };
}
