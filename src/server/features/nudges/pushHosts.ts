import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { publicPushHosts } from '../../config.js';

// Where the server may send a push (an endpoint is a URL a browser's push service gave the page,
// so anyone signed in can post any URL): only to a host WEB_PUSH_ALLOWED_HOSTS names. At
// subscription the endpoint's host is matched against the list, without a DNS lookup; an IP
// address matches only an entry that is that address. At each delivery the host is resolved by
// the connection itself (the address checked is the address connected to, so a name that changes
// its answer in between gains nothing), and any address that is not public unicast is refused,
// unless the operator listed the host themselves (a push service inside their network).

/** The endpoint's host as the list writes it: lower case, IPv6 in brackets, no trailing dot. */
export function endpointHost(endpoint: string): string | null {
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'https:') return null;
    return url.hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}

const isIpLiteral = (host: string) => net.isIP(host.startsWith('[') ? host.slice(1, -1) : host) !== 0;

/** The list's entry that allows `host`, or null: exact, or `*.domain` for a name under it (never an IP address). */
export function allowingEntry(host: string, allowed: readonly string[]): string | null {
  for (const entry of allowed) {
    if (entry === host) return entry;
    if (entry.startsWith('*.') && !isIpLiteral(host) && host.endsWith(entry.slice(1)) && host.length > entry.length - 1) return entry;
  }
  return null;
}

/** True when the host is allowed and was listed by the operator (not one of the public services'). */
export function operatorTrusts(entry: string): boolean {
  return !(publicPushHosts as readonly string[]).includes(entry);
}

const benchmarking = ipaddr.parseCIDR('198.18.0.0/15');
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

/** Public unicast only: not loopback, private, link-local, shared, reserved, multicast or any other special range. */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  if (address.kind() === 'ipv4') return address.range() === 'unicast' && !(address as ipaddr.IPv4).match(benchmarking as [ipaddr.IPv4, number]);
  return address.range() === 'unicast' && (address as ipaddr.IPv6).match(globalUnicastV6 as [ipaddr.IPv6, number]);
}

/** Thrown by the connection's lookup when the host resolves to an address it may not reach. */
export class RefusedAddressError extends Error {
  readonly code = 'EPUSHADDRESS';
  constructor() {
    super('the push host resolves to an address that is not public');
  }
}

/** Every address a host name resolves to (the server's resolver: DNS, /etc/hosts). */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemHostLookup: HostLookup = (hostname) => dns.promises.lookup(hostname, { all: true });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void;

/** A lookup for net.connect that resolves the name and refuses it when any of its addresses is not public. */
function publicOnlyLookup(resolve: HostLookup) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const addresses = wanted ? found.filter((a) => a.family === wanted) : found;
        if (!found.length || !found.every((a) => isPublicAddress(a.address)) || !addresses.length) return callback(new RefusedAddressError(), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

// Connections are not kept alive: an endpoint's host is looked up again for each push.
const publicAgents = new WeakMap<HostLookup, https.Agent>();
const trustedAgent = new https.Agent({ keepAlive: false });
function publicAgent(resolve: HostLookup): https.Agent {
  let agent = publicAgents.get(resolve);
  if (!agent) {
    agent = new https.Agent({ keepAlive: false, lookup: publicOnlyLookup(resolve) as unknown as net.LookupFunction });
    publicAgents.set(resolve, agent);
  }
  return agent;
}

/**
 * The agent a delivery to `endpoint` goes through, or null when it may not be sent: its host is
 * not on the list (any more), or it is an address the list does not trust.
 */
export function deliveryAgent(endpoint: string, allowed: readonly string[], resolve: HostLookup): https.Agent | null {
  const host = endpointHost(endpoint);
  if (!host) return null;
  const entry = allowingEntry(host, allowed);
  if (!entry) return null;
  if (operatorTrusts(entry)) return trustedAgent;
  // A public service's entry never names an address, but should one come to: it must be public too.
  if (isIpLiteral(host)) return isPublicAddress(host.startsWith('[') ? host.slice(1, -1) : host) ? publicAgent(resolve) : null;
  return publicAgent(resolve);
}
