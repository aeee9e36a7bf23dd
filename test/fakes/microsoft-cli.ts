import { parseArgs } from 'node:util';
import { startFakeEntra } from './entra/index.js';
import { startFakeGraph, type FakeMailbox } from './graph/index.js';

// The Graph and Entra ID fakes as one process, for Playwright's webServer entries:
//   npx tsx test/fakes/microsoft-cli.ts --graph-port 5320 --entra-port 5321
// Every token Entra issues, and every pasted token starting with "e2e-", opens a fresh mailbox
// seeded with the same sample mail, so parallel tests never share one. Device codes are approved
// on their second poll and expire after --device-code-lifetime seconds.

const { values } = parseArgs({
  options: {
    'graph-port': { type: 'string' },
    'entra-port': { type: 'string' },
    'device-code-lifetime': { type: 'string' },
    'approve-after-polls': { type: 'string' },
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

const graph = await startFakeGraph({ port: Number(values['graph-port'] ?? 0), acceptToken: (token) => token.startsWith('e2e-'), onNewMailbox: seed });
const entra = await startFakeEntra({
  port: Number(values['entra-port'] ?? 0),
  deviceCodeLifetime: Number(values['device-code-lifetime'] ?? 900),
  deviceCodeInterval: 1,
  onAccessToken: (token) => seed(graph.addMailbox({ tokens: [token] })),
});
entra.approveAfterPolls(Number(values['approve-after-polls'] ?? 2));
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
