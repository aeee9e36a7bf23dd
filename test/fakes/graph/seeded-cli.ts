import { parseArgs } from 'node:util';
import { corpusStyles, sentItemsFor } from '../../fixtures/sentMailCorpus.js';
import { startFakeGraph } from './index.js';

// The https Graph fake as a process of its own, for Playwright's webServer entries, with one
// mailbox per corpus style of sent mail (test/fixtures/sentMailCorpus.ts), reached with the token
// `e2e-<style>` (e2e-formal, e2e-friendly, e2e-terse, e2e-bullets), and `e2e-few` holding only 3.
//   npx tsx test/fakes/graph/seeded-cli.ts --port 4351
// It serves the committed test certificates (test/fakes/tls.ts; TEST_TLS_DIR names others); the
// app trusts their authority through NODE_EXTRA_CA_CERTS=test/fakes/tls/ca.pem. Stops on SIGINT or SIGTERM.

const { values } = parseArgs({ options: { port: { type: 'string' } }, strict: true });
const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0) {
  console.error('--port must be a port number');
  process.exit(2);
}

const graph = await startFakeGraph({ port });
for (const style of corpusStyles) {
  graph.addMailbox({ tokens: [`e2e-${style}`], displayName: 'Riley Writer', mail: `riley.${style}@contoso.example` }).addSentItems(sentItemsFor(style, 12));
}
graph.addMailbox({ tokens: ['e2e-few'], displayName: 'Riley Writer', mail: 'riley.few@contoso.example' }).addSentItems(sentItemsFor('friendly', 3));
console.log(`Graph fake on ${graph.url}`);

const stop = () => void graph.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
