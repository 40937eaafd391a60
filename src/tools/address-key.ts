/**
 * @module tools/address-key
 * The key a client address is counted under, by the per-address limits (upload slots, live
 * sockets and joins, the PDF workers' strikes): a helper of no domain, so none of them has
 * to import another's module for it.
 */

/**
 * The key an address is counted under: an IPv4 address as is; an IPv6 address by its /64
 * (one subscriber or one host usually owns a whole /64, so counting single addresses would
 * let it open 2^64 slots); an IPv4-mapped IPv6 address as its IPv4 address.
 */
export function addressKey(address: string): string {
  const plain = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(":")) return plain;
  const groups = expandIpv6(plain);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : plain;
}

/** The eight 16-bit groups of an IPv6 address (lowercase, no leading zeros), or null. */
function expandIpv6(address: string): string[] | null {
  let text = address.toLowerCase();
  // A trailing dotted quad (::1.2.3.4) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16).toString(16));
}
