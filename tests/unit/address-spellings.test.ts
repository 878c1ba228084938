import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressGuard, isPrivateAddress, RefusedAddressError } from "@/lib/net/address";

/**
 * An address written any way a URL allows is judged as the address it is: a private IPv4 address
 * stays refused in every spelling, and an IPv6 address that carries an IPv4 one (IPv4-compatible,
 * IPv4-translated, NAT64, 6to4, Teredo) is refused whatever it carries. The guard is asked as a
 * request asks it: with the URL, whose host the WHATWG parser has normalised.
 */

const guard = addressGuard(() => false);
const refused = (url: string) =>
  guard.check(new URL(url)).then(
    () => false,
    (error: unknown) => {
      if (error instanceof RefusedAddressError) return true;
      throw error;
    },
  );

type Octets = [number, number, number, number];
const octet = fc.integer({ min: 0, max: 255 });
const hex = (value: number, width = 1) => value.toString(16).padStart(width, "0");
const word = (high: number, low: number) => hex(high * 256 + low);

/** Private and reserved IPv4 networks: [first octets, prefix length]. */
const PRIVATE_V4: [Octets, number][] = [
  [[0, 0, 0, 0], 8], [[10, 0, 0, 0], 8], [[100, 64, 0, 0], 10], [[127, 0, 0, 0], 8], [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12], [[192, 168, 0, 0], 16], [[198, 18, 0, 0], 15], [[224, 0, 0, 0], 4], [[240, 0, 0, 0], 4],
];
const toNumber = ([a, b, c, d]: Octets) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const toOctets = (value: number): Octets => [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];

const privateV4 = fc
  .tuple(fc.constantFrom(...PRIVATE_V4), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
  .map(([[network, prefix], host]) => toOctets(toNumber(network) + (prefix === 32 ? 0 : host % 2 ** (32 - prefix))));
/** Public IPv4 addresses (a few well-known global networks). */
const publicV4 = fc.tuple(fc.constantFrom(8, 93, 151, 185), octet, octet, octet).map((octets) => octets as Octets);

/** Ways a URL's host may write one IPv4 address, all of which the URL parser reads as it. */
const v4Spellings = ([a, b, c, d]: Octets) => [
  `${a}.${b}.${c}.${d}`,
  `${toNumber([a, b, c, d])}`,
  `0x${hex(toNumber([a, b, c, d]))}`,
  `0${a.toString(8)}.${b}.0x${hex(c)}.${d}`,
  `${a}.${b}.${c * 256 + d}`,
  `[::ffff:${a}.${b}.${c}.${d}]`,
  `[::FFFF:${word(a, b)}:${word(c, d)}]`,
  `[0:0:0:0:0:ffff:${a}.${b}.${c}.${d}]`,
  `[0000:0000::ffff:${hex(a * 256 + b, 4)}:${hex(c * 256 + d, 4)}]`,
];

/** IPv6 forms that carry an IPv4 address for a relay or translator to reach. */
const embeddings = ([a, b, c, d]: Octets, suffix: number) => [
  `[::${a}.${b}.${c}.${d}]`,
  `[::${word(a, b)}:${word(c, d)}]`,
  `[::ffff:0:${a}.${b}.${c}.${d}]`,
  `[64:ff9b::${a}.${b}.${c}.${d}]`,
  `[64:ff9b:1:${hex(suffix & 0xffff)}::${a}.${b}.${c}.${d}]`,
  `[2002:${word(a, b)}:${word(c, d)}::${hex(suffix & 0xffff)}]`,
  `[2001:0:${word(a, b)}:${word(c, d)}:8000:${hex(suffix & 0xffff)}:${word(255 - a, 255 - b)}:${word(255 - c, 255 - d)}]`,
];

describe("addresses in every spelling", () => {
  it("refuses a private IPv4 address however the URL writes it", async () => {
    await fc.assert(
      fc.asyncProperty(privateV4, async (address) => {
        for (const host of v4Spellings(address)) expect(await refused(`https://${host}/hook`), host).toBe(true);
      }),
    );
  });

  it("accepts a public IPv4 address written as IPv4 or IPv4-mapped IPv6", async () => {
    await fc.assert(
      fc.asyncProperty(publicV4, async (address) => {
        for (const host of v4Spellings(address)) expect(await refused(`https://${host}/hook`), host).toBe(false);
      }),
    );
  });

  it("refuses every IPv6 form that carries an IPv4 address (compatible, translated, NAT64, 6to4, Teredo), whatever it carries", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(privateV4, publicV4), fc.nat(), async (address, suffix) => {
        for (const host of embeddings(address, suffix)) expect(await refused(`https://${host}/hook`), host).toBe(true);
      }),
    );
  });

  it("accepts global IPv6 unicast outside those ranges", () => {
    fc.assert(
      fc.property(fc.constantFrom("2606:4700", "2a00:1450", "2001:4860", "2620:fe"), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 6, maxLength: 6 }), (prefix, words) => {
        const address = `${prefix}:${words.map((value) => hex(value)).join(":")}`;
        expect(isPrivateAddress(address), address).toBe(false);
      }),
    );
  });
});
