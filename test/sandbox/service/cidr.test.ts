/**
 * Unit tests of net/cidr.ts, the address arithmetic behind the IP allow-list: parsing both
 * families (with compressed and IPv4-mapped forms), CIDR membership, CIDR validation, and
 * which address of an X-Forwarded-For chain the service believes.
 */
import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientAddress, inCidr, isCidr, parseAddress } from "../../../sandbox/service/net/cidr.ts";

describe("parseAddress", () => {
  it("reads dotted IPv4 addresses as 32-bit numbers", () => {
    expect(parseAddress("10.1.2.3")).toEqual({ family: 4, value: 0x0a010203n });
    expect(parseAddress("0.0.0.0")).toEqual({ family: 4, value: 0n });
    expect(parseAddress("255.255.255.255")).toEqual({ family: 4, value: 0xffffffffn });
  });

  it("refuses IPv4 text with missing, extra or out-of-range parts", () => {
    for (const bad of ["10.1.2", "10.1.2.3.4", "256.1.1.1", "10.1.2.-3", "10..2.3", "a.b.c.d", "10.1.2.3/8", ""]) {
      expect(parseAddress(bad), bad).toBeUndefined();
    }
  });

  it("reads full and compressed IPv6 forms as the same 128-bit number", () => {
    const full = parseAddress("fd00:0000:0000:0000:0000:0000:0000:0001");
    expect(full).toEqual({ family: 6, value: (0xfd00n << 112n) | 1n });
    expect(parseAddress("fd00::1")).toEqual(full);
    expect(parseAddress("FD00:0:0::1")).toEqual(full);
    expect(parseAddress("::")).toEqual({ family: 6, value: 0n });
    expect(parseAddress("::1")).toEqual({ family: 6, value: 1n });
    expect(parseAddress("1::")).toEqual({ family: 6, value: 1n << 112n });
  });

  it("accepts brackets and a zone index around an IPv6 address, as URLs and sockets write them", () => {
    expect(parseAddress("[::1]")).toEqual({ family: 6, value: 1n });
    expect(parseAddress("fe80::1%eth0")).toEqual({ family: 6, value: (0xfe80n << 112n) | 1n });
  });

  it("refuses malformed IPv6 text", () => {
    for (
      const bad of [
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "1::2::3",
        "12345::1",
        "g::1",
        ":1:2:3:4:5:6:7",
        "1:::2",
        "::1.2.3",
        "::256.1.1.1",
      ]
    ) {
      expect(parseAddress(bad), bad).toBeUndefined();
    }
  });

  it("treats an IPv4-mapped IPv6 address as its IPv4 address, in dotted and hex forms", () => {
    expect(parseAddress("::ffff:10.1.2.3")).toEqual({ family: 4, value: 0x0a010203n });
    expect(parseAddress("::ffff:a01:203")).toEqual({ family: 4, value: 0x0a010203n });
    expect(parseAddress("0:0:0:0:0:ffff:127.0.0.1")).toEqual({ family: 4, value: 0x7f000001n });
  });

  it("keeps other IPv6 addresses with an embedded IPv4 tail as IPv6", () => {
    // ::10.1.2.3 is the deprecated IPv4-compatible form, not a mapped one.
    expect(parseAddress("::10.1.2.3")).toEqual({ family: 6, value: 0x0a010203n });
    expect(parseAddress("64:ff9b::10.1.2.3")?.family).toBe(6);
  });

  it("agrees with Node's isIP on which strings are addresses", () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join("."));
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const v6 = fc.array(group, { minLength: 8, maxLength: 8 }).chain((groups) =>
      fc.tuple(fc.nat(8), fc.nat(8)).map(([a, b]) => {
        const [from, to] = [Math.min(a, b), Math.max(a, b)];
        // Compress a run of groups (possibly empty, which is then not a valid compression).
        return from === to ? groups.join(":") : `${groups.slice(0, from).join(":")}::${groups.slice(to).join(":")}`;
      })
    );
    const noise = fc.string({ unit: fc.constantFrom(..."0123456789abcdef:."), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(v4, v6, noise), (text) => {
        expect(parseAddress(text) !== undefined, text).toBe(isIP(text) !== 0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("inCidr", () => {
  it("matches IPv4 addresses inside a block and not outside it", () => {
    expect(inCidr("10.1.2.3", "10.0.0.0/8")).toBe(true);
    expect(inCidr("10.255.255.255", "10.0.0.0/8")).toBe(true);
    expect(inCidr("11.0.0.0", "10.0.0.0/8")).toBe(false);
    expect(inCidr("192.168.1.1", "10.0.0.0/8")).toBe(false);
    expect(inCidr("127.0.0.1", "127.0.0.1/32")).toBe(true);
    expect(inCidr("127.0.0.2", "127.0.0.1/32")).toBe(false);
    expect(inCidr("203.0.113.9", "0.0.0.0/0")).toBe(true);
  });

  it("matches IPv6 addresses, compressed or not, against IPv6 blocks", () => {
    expect(inCidr("fd00::1", "fd00::/8")).toBe(true);
    expect(inCidr("fdff:ffff::1", "fd00::/8")).toBe(true);
    expect(inCidr("fe00::1", "fd00::/8")).toBe(false);
    expect(inCidr("2001:db8:0:0:0:0:0:1", "2001:db8::/32")).toBe(true);
    expect(inCidr("2001:db9::1", "2001:db8::/32")).toBe(false);
    expect(inCidr("::1", "::1/128")).toBe(true);
  });

  it("never matches across families, except that an IPv4-mapped address is IPv4", () => {
    expect(inCidr("10.1.2.3", "fd00::/8")).toBe(false);
    expect(inCidr("fd00::1", "10.0.0.0/8")).toBe(false);
    expect(inCidr("fd00::1", "0.0.0.0/0")).toBe(false);
    expect(inCidr("10.1.2.3", "::/0")).toBe(false);
    expect(inCidr("::ffff:10.1.2.3", "10.0.0.0/8")).toBe(true);
    expect(inCidr("::ffff:192.168.1.1", "10.0.0.0/8")).toBe(false);
  });

  it("matches nothing for a bad CIDR, so a typo in an allow-list never opens it", () => {
    const bad = [
      "10.0.0.0/33",
      "10.0.0.0/-1",
      "10.0.0.0/",
      "10.0.0.0/x",
      "10.0.0.0/8/8",
      "10.0.0.0/ 8",
      "10.0.0.0/0x8",
      "10.0.0.0/8.0",
      "10.0.0/8",
      "fd00::/129",
      "fd00::/",
      "not-an-ip/8",
      "",
    ];
    for (const cidr of bad) {
      expect(inCidr("10.1.2.3", cidr), cidr).toBe(false);
      expect(inCidr("fd00::1", cidr), cidr).toBe(false);
    }
  });

  it("matches nothing for an address that does not parse", () => {
    expect(inCidr("10.1.2", "0.0.0.0/0")).toBe(false);
    expect(inCidr("unknown", "::/0")).toBe(false);
  });
});

describe("isCidr", () => {
  it("accepts IPv4 and IPv6 blocks with a prefix length in range", () => {
    for (const good of ["10.0.0.0/8", "127.0.0.1/32", "0.0.0.0/0", "fd00::/8", "::1/128", "::/0", "2001:db8::/32"]) {
      expect(isCidr(good), good).toBe(true);
    }
  });

  it("refuses blocks without a prefix, with a prefix out of range or malformed, or with a bad network", () => {
    for (
      const bad of [
        "10.0.0.0",
        "10.0.0.0/33",
        "fd00::/129",
        "10.0.0.0/",
        "10.0.0.0/x",
        "10.0.0.0/-1",
        "10.0.0.0/8/8",
        "10.0.0/8",
        "fd00::/8/1",
        "/8",
        "",
      ]
    ) {
      expect(isCidr(bad), bad).toBe(false);
    }
  });

  it("agrees with inCidr: every valid block contains its own network address", () => {
    fc.assert(fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), fc.nat(32), (parts, bits) => {
      const cidr = `${parts.join(".")}/${bits}`;
      expect(isCidr(cidr)).toBe(true);
      expect(inCidr(parts.join("."), cidr)).toBe(true);
    }));
  });
});

describe("clientAddress", () => {
  const proxies = ["127.0.0.1/32", "::1/128"];

  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For claims", () => {
    expect(clientAddress("127.0.0.1", "10.1.2.3", [])).toBe("127.0.0.1");
    expect(clientAddress("192.168.1.1", "10.1.2.3, 127.0.0.1", [])).toBe("192.168.1.1");
  });

  it("is the socket's address when the socket is not a trusted proxy", () => {
    expect(clientAddress("192.168.1.1", "10.1.2.3", proxies)).toBe("192.168.1.1");
  });

  it("is the socket's address when a trusted proxy sends no X-Forwarded-For", () => {
    expect(clientAddress("127.0.0.1", undefined, proxies)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", "", proxies)).toBe("127.0.0.1");
  });

  it("believes the address a trusted proxy appended", () => {
    expect(clientAddress("127.0.0.1", "10.1.2.3", proxies)).toBe("10.1.2.3");
    expect(clientAddress("::1", "fd00::1", proxies)).toBe("fd00::1");
    expect(clientAddress("::ffff:127.0.0.1", "10.1.2.3", proxies)).toBe("10.1.2.3");
  });

  it("ignores addresses a client put in front of the chain: the right-most untrusted hop wins", () => {
    // The client sent "X-Forwarded-For: 10.1.2.3"; the proxy appended the address it saw.
    expect(clientAddress("127.0.0.1", "10.1.2.3, 192.168.1.1", proxies)).toBe("192.168.1.1");
    expect(clientAddress("127.0.0.1", "10.1.2.3,192.168.1.1", proxies)).toBe("192.168.1.1");
  });

  it("walks back over a chain of trusted proxies to the first untrusted hop", () => {
    const chain = ["127.0.0.1/32", "172.16.0.0/12"];
    expect(clientAddress("127.0.0.1", "10.9.9.9, 192.168.1.1, 172.16.0.5, 172.16.0.6", chain)).toBe("192.168.1.1");
  });

  it("falls back to the socket's address when the nearest untrusted hop is not an address", () => {
    expect(clientAddress("127.0.0.1", "10.1.2.3, unknown", proxies)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", "10.1.2.3, 10.1.2", proxies)).toBe("127.0.0.1");
  });

  it("takes the left-most hop when every hop is a trusted proxy", () => {
    expect(clientAddress("127.0.0.1", "127.0.0.1, 127.0.0.1", proxies)).toBe("127.0.0.1");
  });
});
