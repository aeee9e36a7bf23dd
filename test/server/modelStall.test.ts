import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Every model stream has the stall watch (features/coach/modelStream.ts), not only the chat's:
// a model that sends two tokens and then nothing, the connection held open, is stopped after
// MODEL_STALL_TIMEOUT_SECONDS on the OpenAI-compatible API (a 502 with the spec's text) and in the
// weekly review (written from the template instead), where before they waited for the model's
// own timeout or for ever.

vi.setConfig({ testTimeout: 60_000 });

let fake: FakeOpenAI;
let server: TestServer;
let users = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, MODEL_STALL_TIMEOUT_SECONDS: '1' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const newUser = () => signUp(server.url, `stall_${++users}_${Date.now() % 100000}`, 'Jane Doe');

describe('the stall watch on every model stream', () => {
  it('stops a stalled model on the OpenAI-compatible API: 502 with the reply-failed text, within seconds', async () => {
    fake.reset();
    fake.behave({ tokens: ['Half', ' an', ' answer'], stallAfterTokens: 2 });
    const { http } = await newUser();
    const started = performance.now();
    const res = await http.post('/api/openai/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Help me with my goal' }] });
    expect(res.status).toBe(502);
    expect(res.json.error?.message ?? res.json.message).toBe(chatTexts.replyFailed);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('writes the weekly review from the template when the model stalls, well before its 30 s timeout', async () => {
    fake.reset();
    fake.behave({ tokens: ['Your', ' focus', ' this week'], stallAfterTokens: 2 });
    const { http } = await newUser();
    const started = performance.now();
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(run.status).toBe(202);
    const done = await eventually(async () => ((await http.get('/api/nudges/runs')).json.runs as Array<{ id: number; status: string; chatId: number | null }>).find((r) => r.id === run.json.runId && r.status !== 'queued'), 40_000);
    expect(done.status).toBe('sent');
    expect(performance.now() - started).toBeLessThan(15_000);
    const [review] = (await http.get(`/api/chats/${done.chatId}/messages`)).json as Array<{ content: string }>;
    // The template's review, not the model's two words.
    expect(review!.content).not.toMatch(/^Your focus$/);
    expect(review!.content.length).toBeGreaterThan(40);
    expect(fake.requests.some((r) => String(r.body.messages?.[0]?.content ?? '').includes('weekly review'))).toBe(true);
  });
});
