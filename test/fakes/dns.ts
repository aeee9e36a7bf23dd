import net from 'node:net';
import type { HostLookup } from '../../src/server/features/nudges/pushHosts.js';

// A resolver that answers from its own table, as /etc/hosts would, for names a test cannot own
// (a public push service's host made to resolve to a private address): handed to the server as
// its host lookup (startTestServer's `hostLookup`). A name not in the table is not found, as DNS
// answers ENOTFOUND; `asked` records every name looked up.

export type FakeResolver = { lookup: HostLookup; asked: string[] };

export function fakeResolver(table: Record<string, string[]>): FakeResolver {
  const asked: string[] = [];
  const lookup: HostLookup = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname.toLowerCase()];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  return { lookup, asked };
}
