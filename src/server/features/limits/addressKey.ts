import net from 'node:net';

// The one function that turns a client's IP address into the key of every per-address limit.
// An IPv6 client usually holds a whole /64 (SLAAC, privacy addresses; a /64 is what
// one customer line gets), so counting the full address would let it take a fresh budget with
// every request: IPv6 addresses count by their /64. An IPv4 address, also one written as an
// IPv4-mapped IPv6 address (::ffff:192.0.2.1), counts as itself.
export function rateLimitAddressKey(ip: string): string {
  const address = ip.split('%')[0]!.trim(); // a zone id (fe80::1%eth0) names an interface, not a client
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ('::' expanded, a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (net.isIPv4(tail)) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  if (rest === undefined) return left;
  const right = part(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const trustedLists = new WeakMap<readonly string[], net.BlockList>();

/** Whether `ip` is in TRUSTED_ADDRESSES (addresses and CIDR ranges; an IPv4-mapped IPv6 address counts as its IPv4). */
export function isTrustedAddress(trusted: readonly string[], ip: string): boolean {
  if (!trusted.length) return false;
  let list = trustedLists.get(trusted);
  if (!list) {
    list = new net.BlockList();
    for (const item of trusted) {
      const [address, prefix] = item.split('/') as [string, string | undefined];
      const type = net.isIPv4(address) ? 'ipv4' : 'ipv6';
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    }
    trustedLists.set(trusted, list);
  }
  const address = ip.split('%')[0]!.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return list.check(mapped, 'ipv4');
  if (net.isIPv4(address)) return list.check(address, 'ipv4');
  if (net.isIPv6(address)) return list.check(address, 'ipv6');
  return false;
}
