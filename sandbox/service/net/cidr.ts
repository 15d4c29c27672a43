/**
 * IPv4 and IPv6 addresses and CIDR blocks as big integers, so one comparison serves both
 * families. IPv4-mapped IPv6 addresses (::ffff:10.1.2.3) count as their IPv4 address.
 */

interface Address {
  family: 4 | 6;
  value: bigint;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    value = (value << 8n) | BigInt(p);
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  let head = text;
  let tailV4: bigint | undefined;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tailV4 = parseIPv4(text.slice(lastColon + 1));
    if (tailV4 === undefined) return undefined;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(halves[0]), right = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const all = [...left, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...right];
  let value = 0n;
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== undefined) value = (value & ~0xffffffffn) | tailV4;
  return value;
}

const MAPPED_PREFIX = 0xffffn << 32n;

/** Parses an address; IPv4-mapped IPv6 becomes IPv4. Undefined when it is not an address. */
export function parseAddress(text: string): Address | undefined {
  const bare = text.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = parseIPv4(bare);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIPv6(bare);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn && (v6 & ~0xffffffffn) === MAPPED_PREFIX) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

/** Whether `address` lies in `cidr` (e.g. "10.0.0.0/8", "fd00::/8"); a bad CIDR matches nothing. */
export function inCidr(address: string, cidr: string): boolean {
  const parts = cidr.split("/");
  const [net, bitsText] = parts;
  // Number("") is 0: an empty or odd prefix must not widen the block to everything.
  if (parts.length > 2 || (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText))) return false;
  const a = parseAddress(address), n = parseAddress(net);
  if (!a || !n || a.family !== n.family) return false;
  const width = a.family === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return false;
  const shift = BigInt(width - bits);
  return a.value >> shift === n.value >> shift;
}

/** Whether a string is a valid CIDR block. */
export function isCidr(cidr: string): boolean {
  const parts = cidr.split("/");
  const [net, bits] = parts;
  const a = parseAddress(net);
  if (!a || parts.length !== 2 || !/^\d+$/.test(bits)) return false;
  return Number(bits) <= (a.family === 4 ? 32 : 128);
}

/**
 * The client's address: the socket's, unless the socket is a trusted proxy, in which case the
 * right-most address of X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientAddress(socketAddress: string, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  const trusted = (ip: string) => trustedProxies.some((cidr) => inCidr(ip, cidr));
  if (!forwardedFor || !trusted(socketAddress)) return socketAddress;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!parseAddress(hops[i])) return socketAddress;
    if (!trusted(hops[i])) return hops[i];
  }
  return hops[0] ?? socketAddress;
}
