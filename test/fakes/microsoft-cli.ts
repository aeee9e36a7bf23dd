import http from 'node:http';
import { parseArgs } from 'node:util';
import { startFakeEntra } from './entra/index.js';
import { startFakeGraph, type FakeMailbox } from './graph/index.js';

// The Graph and Entra ID fakes as one process, for Playwright's webServer entries:
//   npx tsx test/fakes/microsoft-cli.ts --graph-port 5320 --entra-port 5321
// Every token Entra issues, and every pasted token starting with "e2e-", opens a fresh mailbox
// seeded with the same sample mail, so parallel tests never share one. Device codes are approved
// on their second poll and expire after --device-code-lifetime seconds.
// For the meetings project: --shared-mailbox gives every token one mailbox (so a
// refreshed token still reaches the same calendar), seeded with meetings relative to now;
// --access-token-lifetime makes tokens expire (every Graph call refreshes first); --page-size caps
// Graph pages; --control-port serves POST /throttle, POST /revoke (refresh tokens answer
// invalid_grant) and GET /stats (what the fakes saw) for the e2e tests.
// --seed-meetings puts the same meetings into every fresh mailbox too (the microsoft project: a
// 'Sign in with Microsoft' lands on a calendar with meetings in it).

const { values } = parseArgs({
  options: {
    'graph-port': { type: 'string' },
    'entra-port': { type: 'string' },
    'device-code-lifetime': { type: 'string' },
    'approve-after-polls': { type: 'string' },
    'shared-mailbox': { type: 'boolean' },
    'access-token-lifetime': { type: 'string' },
    'page-size': { type: 'string' },
    'control-port': { type: 'string' },
    'seed-meetings': { type: 'boolean' },
  },
  strict: true,
});

const senders = [
  ['Priya Patel', 'priya.patel@contoso.example'],
  ['Sam Lee', 'sam.lee@contoso.example'],
  ['Jordan Kim', 'jordan.kim@contoso.example'],
] as const;

function seed(box: FakeMailbox) {
  const projects = box.addFolder('Projects');
  box.addFolder('Apollo', projects.id);
  box.addFolder('Receipts');
  box.addMessages(
    Array.from({ length: 30 }, (_, i) => {
      const [fromName, fromAddress] = senders[i % senders.length]!;
      return {
        subject: `Sample email ${i + 1}`,
        fromName,
        fromAddress,
        importance: i === 29 ? ('high' as const) : ('normal' as const),
        hasAttachments: i === 28,
        isRead: i % 3 === 0,
        body: `This is the body of sample email ${i + 1}. Could we meet on Thursday to go over the plan?`,
      };
    }),
  );
  box.addSentItems(Array.from({ length: 6 }, (_, i) => ({ subject: `Sent ${i + 1}`, body: `Hi team,\n\nA short update number ${i + 1}.\n\nThanks,\nAlex` })));
}

const hour = 3_600_000;
const at = (hours: number) => new Date(Math.floor((Date.now() + hours * hour) / 60_000) * 60_000).toISOString();
function seedMeetings(box: FakeMailbox) {
  box.addEvents([
    {
      subject: 'Quarterly planning',
      start: at(3),
      end: at(4),
      location: 'Board room',
      body: '<p>Topics:</p><ul><li>Hiring plan</li><li>Budget for Q1</li></ul>',
      attendees: [{ name: 'Priya Patel', email: 'priya.patel@contoso.example', response: 'accepted' }, { name: 'Sam Lee', email: 'sam.lee@contoso.example' }],
    },
    { subject: 'Team sync', start: at(5), end: at(5.5), isOnline: true, recurrence: { type: 'daily', count: 3 }, cancelledOccurrences: [1], attendees: [{ name: 'Jordan Kim', email: 'jordan.kim@contoso.example' }] },
    { subject: 'Cancelled offsite', start: at(6), end: at(8), isCancelled: true },
    { subject: 'Vendor call', start: at(28), end: at(29), organizer: { name: 'Olga Vendor', email: 'olga@fabrikam.example' }, attendees: [{ name: 'Alex Morgan', email: 'alex.morgan@contoso.example' }] },
  ]);
}

const sharedMailbox = Boolean(values['shared-mailbox']);
const seedFresh = (box: FakeMailbox) => {
  seed(box);
  if (values['seed-meetings']) seedMeetings(box);
};
// One mailbox for every token in shared mode; a pasted e2e- token is granted to it too.
let shared: FakeMailbox | null = null;
const graph = await startFakeGraph({
  port: Number(values['graph-port'] ?? 0),
  acceptToken: (token) => {
    if (!token.startsWith('e2e-')) return false;
    if (!shared) return true;
    graph.grant(token, shared);
    return false;
  },
  onNewMailbox: seedFresh,
});
if (sharedMailbox) {
  shared = graph.addMailbox({ tokens: [] });
  seed(shared);
  seedMeetings(shared);
}
if (values['page-size']) graph.setMaxPageSize(Number(values['page-size']));
const entra = await startFakeEntra({
  port: Number(values['entra-port'] ?? 0),
  deviceCodeLifetime: Number(values['device-code-lifetime'] ?? 900),
  deviceCodeInterval: 1,
  ...(values['access-token-lifetime'] ? { accessTokenLifetime: Number(values['access-token-lifetime']) } : {}),
  onAccessToken: (token) => (shared ? graph.grant(token, shared) : seedFresh(graph.addMailbox({ tokens: [token] }))),
});
entra.approveAfterPolls(Number(values['approve-after-polls'] ?? 2));

if (values['control-port']) {
  const control = http.createServer((req, res) => {
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && req.url === '/throttle') {
      graph.throttle({ status: 429, times: 1, retryAfterSeconds: 1 });
      return answer({ ok: true });
    }
    if (req.method === 'POST' && req.url === '/revoke') {
      entra.revokeRefreshTokens();
      return answer({ ok: true });
    }
    if (req.method === 'GET' && req.url === '/stats') {
      return answer({
        refreshes: entra.tokenRequests.filter((r) => r.grantType === 'refresh_token' && r.status === 200).length,
        scopes: entra.scopeRequests.map((r) => r.scope),
        graph: graph.requests.map((r) => ({ method: r.method, path: decodeURIComponent(r.path), status: r.status, prefer: r.prefer })),
        sentMail: shared?.sentMail ?? [],
      });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(Number(values['control-port']), '127.0.0.1', () => resolve()));
}
console.log(`fake Graph at ${graph.url}, fake Entra ID at ${entra.url}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.all([graph.close(), entra.close()]);
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
