import { parseArgs } from 'node:util';
import { startFakeTwilio } from './twilio/index.js';

// The fake Twilio Calls API as a process of its own, for Playwright's webServer entries:
//   npx tsx test/fakes/twilio-cli.ts --port 4330     (readiness: GET /healthz)
const { values } = parseArgs({ options: { port: { type: 'string' } }, strict: true });
const fake = await startFakeTwilio({ port: values.port ? Number(values.port) : undefined });
console.log(`fake Twilio listening at ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
