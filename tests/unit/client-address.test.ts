import { describe, expect, it } from "vitest";
import { appendPeer, clientAddress } from "@/lib/http/client-address";

const address = (forwardedFor: string | undefined, trustProxy: number) =>
  clientAddress(new Headers(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }), trustProxy);

describe("clientAddress", () => {
  it("is the socket peer (rightmost entry) when no proxy is trusted, whatever the client wrote", () => {
    expect(address(appendPeer(undefined, "198.51.100.7"), 0)).toBe("198.51.100.7");
    expect(address(appendPeer("1.2.3.4, 5.6.7.8", "198.51.100.7"), 0)).toBe("198.51.100.7");
  });

  it("is the entry the outermost trusted proxy appended", () => {
    expect(address(appendPeer("6.6.6.6, 203.0.113.9", "10.0.0.2"), 1)).toBe("203.0.113.9");
    expect(address(appendPeer("6.6.6.6, 203.0.113.9, 10.0.0.1", "10.0.0.2"), 2)).toBe("203.0.113.9");
    // Fewer hops than trusted proxies: the leftmost is the best there is.
    expect(address("203.0.113.9", 3)).toBe("203.0.113.9");
  });

  it("keys IPv6 clients by their /64 and unwraps IPv4-mapped addresses", () => {
    expect(address("2001:db8:1:2:aaaa::1", 0)).toBe("2001:db8:1:2::/64");
    expect(address("2001:db8:1:2:bbbb:cccc:dddd:eeee", 0)).toBe("2001:db8:1:2::/64");
    expect(address("2001:db8::1", 0)).toBe("2001:db8:0:0::/64");
    expect(address("::ffff:198.51.100.7", 0)).toBe("198.51.100.7");
    expect(address("[2001:db8:1:2::5]:443", 0)).toBe("2001:db8:1:2::/64");
  });

  it("puts requests without a usable address under one shared key", () => {
    expect(address(undefined, 0)).toBe("unknown");
    expect(address("not-an-address", 0)).toBe("unknown");
  });

  it("appendPeer joins repeated headers and the peer as one more hop", () => {
    expect(appendPeer(["1.1.1.1", "2.2.2.2"], "3.3.3.3")).toBe("1.1.1.1, 2.2.2.2, 3.3.3.3");
    expect(appendPeer(undefined, undefined)).toBe("unknown");
  });
});
