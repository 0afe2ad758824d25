/**
 * IP addresses and CIDR ranges as bytes, without Node: the web form validates an allowlist with
 * the same parser the API matches it with. Used for the SMS gateway's outbound address policy
 * (no loopback, link-local or private targets) and the webhook's source allowlist.
 */

/** 4 bytes for IPv4, 16 for IPv6; null when the text is not an address. */
export function parseIp(text: string): Uint8Array | null {
  const value = text.trim().replace(/^\[(.*)\]$/u, "$1");
  return parseIpv4(value) ?? parseIpv6(value);
}

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    // Dotted decimal only: "0x7f.1" or "0177.0.0.1" are refused rather than guessed at.
    if (!/^(0|[1-9]\d{0,2})$/u.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    bytes[i] = n;
  }
  return bytes;
}

function parseIpv6(text: string): Uint8Array | null {
  if (!text.includes(":") || text.includes("%")) return null;
  let head = text;
  let tailV4: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tailV4 = parseIpv4(text.slice(lastColon + 1));
    if (!tailV4) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  for (const [i, group] of all.entries()) {
    if (!/^[0-9a-f]{1,4}$/iu.test(group)) return null;
    const n = parseInt(group, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  }
  if (tailV4) bytes.set(tailV4, 12);
  return bytes;
}

export interface Cidr {
  bytes: Uint8Array;
  prefix: number;
}

/** "10.0.0.0/8", "2001:db8::/32" or a single address (a /32 or /128). */
export function parseCidr(text: string): Cidr | null {
  const [address, prefixText, ...rest] = text.trim().split("/");
  if (rest.length || address === undefined) return null;
  const bytes = parseIp(address);
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (prefixText === undefined) return { bytes, prefix: max };
  if (!/^\d{1,3}$/u.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { bytes, prefix } : null;
}

export function inCidr(address: Uint8Array, range: Cidr): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

const cidrs = (list: string[]) => list.map((c) => parseCidr(c)!);

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const NON_PUBLIC_V4 = cidrs([
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
]);

/** IPv6 ranges that are not the public internet (the IPv4-embedding ones are checked by their IPv4). */
const NON_PUBLIC_V6 = cidrs(["::/128", "::1/128", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8"]);

/** IPv6 forms that carry an IPv4 address, with where its 4 bytes sit. */
const EMBEDDING_V6: Array<{ range: Cidr; at: number }> = [
  { range: parseCidr("::ffff:0:0/96")!, at: 12 }, // IPv4-mapped
  { range: parseCidr("::/96")!, at: 12 }, // IPv4-compatible (deprecated)
  { range: parseCidr("64:ff9b::/96")!, at: 12 }, // NAT64
  { range: parseCidr("64:ff9b:1::/48")!, at: 12 }, // local NAT64
  { range: parseCidr("2002::/16")!, at: 2 }, // 6to4
];

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(address: Uint8Array): Uint8Array | null {
  if (address.length !== 16) return null;
  for (const { range, at } of EMBEDDING_V6) {
    if (inCidr(address, range)) return address.slice(at, at + 4);
  }
  return null;
}

/**
 * True for an address on the public internet; false for loopback, link-local, private, shared,
 * multicast, reserved and documentation ranges, in IPv4 and IPv6 incl. every IPv4-in-IPv6 form.
 */
export function isPublicAddress(address: Uint8Array): boolean {
  const v4 = address.length === 4 ? address : embeddedIpv4(address);
  if (v4) return !NON_PUBLIC_V4.some((range) => inCidr(v4, range));
  return !NON_PUBLIC_V6.some((range) => inCidr(address, range));
}

/** Whether an address (as text, e.g. Express's req.ip) is inside one of the ranges. */
export function addressInList(addressText: string, ranges: readonly string[]): boolean {
  const address = parseIp(addressText);
  if (!address) return false;
  const v4 = address.length === 16 && inCidr(address, EMBEDDING_V6[0]!.range) ? address.slice(12) : null;
  return ranges.some((text) => {
    const range = parseCidr(text);
    return range !== null && (inCidr(address, range) || (v4 !== null && inCidr(v4, range)));
  });
}
