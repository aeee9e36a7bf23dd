import { parseArgs } from 'node:util';
import { startFakeOpenAI, type FakeBehaviour } from './openai.js';

// The fake OpenAI server (openai.ts) as a process of its own, for Playwright's webServer entries:
//   npx tsx test/fakes/openai-cli.ts --port 4320 --token-delay-ms 80 --tokens 400   (a slow model)
//   npx tsx test/fakes/openai-cli.ts --port 4321 --status 500                      (a failing one)
// It answers GET /v1/models, which doubles as its readiness URL, and stops on SIGINT or SIGTERM.

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'token-delay-ms': { type: 'string' },
    tokens: { type: 'string' },
    status: { type: 'string' },
    reply: { type: 'string' },
    'speech-ms': { type: 'string' },
    'speech-chunks': { type: 'string' },
    'speech-chunk-delay-ms': { type: 'string' },
  },
  strict: true,
});

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    console.error(`--${name} must be a whole number, got "${value}"`);
    process.exit(2);
  }
  return parsed;
}

const port = integer('port', values.port);
const tokenDelayMs = integer('token-delay-ms', values['token-delay-ms']);
const tokenCount = integer('tokens', values.tokens);
const status = integer('status', values.status);
const speechDurationMs = integer('speech-ms', values['speech-ms']);
const speechChunks = integer('speech-chunks', values['speech-chunks']);
const speechChunkDelayMs = integer('speech-chunk-delay-ms', values['speech-chunk-delay-ms']);
if (status !== undefined && status !== 429 && status !== 500 && status !== 401) {
  console.error('--status must be 429, 500 or 401');
  process.exit(2);
}

// Readable words, so that a streamed reply looks like one in screenshots and traces.
const sentence = 'Here is a slowly streamed reply from the fake model, one word at a time, so that you can stop it.';
function wordTokens(count: number): string[] {
  const words = sentence.split(' ');
  return Array.from({ length: count }, (_, i) => `${words[i % words.length]}${i === count - 1 ? '' : ' '}`);
}

const behaviour: FakeBehaviour = {
  ...(values.reply !== undefined ? { reply: values.reply } : {}),
  ...(tokenCount !== undefined ? { tokens: wordTokens(tokenCount) } : {}),
  ...(tokenDelayMs !== undefined ? { tokenDelayMs } : {}),
  ...(status !== undefined ? { status: status as 429 | 500 | 401 } : {}),
  ...(speechDurationMs !== undefined ? { speechDurationMs } : {}),
  ...(speechChunks !== undefined ? { speechChunks } : {}),
  ...(speechChunkDelayMs !== undefined ? { speechChunkDelayMs } : {}),
};

const fake = await startFakeOpenAI({ port });
fake.behave(behaviour);
console.log(`fake OpenAI listening at ${fake.url} ${JSON.stringify({ ...behaviour, tokens: behaviour.tokens?.length })}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await fake.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
