import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiLimits } from '../../src/shared/schemas/ai.js';
import { authTexts, chatTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { signUp } from '../helpers/clients.js';
import { apiError } from '../helpers/openaiErrors.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// POST /api/openai/chat/completions, with the official openai SDK as the client, on the real app
// whose model is the fake OpenAI server (itself reached through the SDK).
const path = '/api/openai/chat/completions';
let fake: FakeOpenAI;
let server: TestServer;
let userCount = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'configured-model' });
});
afterAll(async () => {
  await server.stop();
  await fake.close();
});
beforeEach(() => fake.reset());

// Each test signs up its own user, so that each has its own request budget.
async function signedIn(baseUrl = server.url) {
  const { http } = await signUp(baseUrl, `ai-user-${++userCount}-${Date.now()}`, 'Jane Doe');
  const sdk = new OpenAI({
    apiKey: 'not-used-the-session-cookie-signs-in',
    baseURL: `${baseUrl}/api/openai`,
    defaultHeaders: { cookie: http.cookieHeader, origin: baseUrl },
    maxRetries: 0,
  });
  return { http, sdk };
}

describe('OpenAI-compatible chat completions', () => {
  it('answers the official SDK with a chat.completion from the configured model', async () => {
    fake.behave({ reply: 'Start with your goal.' });
    const { sdk } = await signedIn();
    const completion = await sdk.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a coach.' },
        { role: 'user', content: 'Help me with my goal' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('configured-model');
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Start with your goal.' });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    // The server asks its configured model, whatever the client named.
    expect(fake.requests[0]!.body).toMatchObject({
      model: 'configured-model',
      messages: [
        { role: 'system', content: 'You are a coach.' },
        { role: 'user', content: 'Help me with my goal' },
      ],
    });
  });

  it('streams server-sent chunks that the SDK reads delta by delta', async () => {
    fake.behave({ tokens: ['One', ' step', ' at', ' a', ' time.'] });
    const { sdk } = await signedIn();
    const stream = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Go' }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe('One step at a time.');
    expect(chunks.filter((c) => c.choices[0]!.delta.content).map((c) => c.choices[0]!.delta.content)).toEqual(['One', ' step', ' at', ' a', ' time.']);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'configured-model')).toBe(true);
  });

  it('passes on no parameters beyond messages, length and temperature', async () => {
    const { http } = await signedIn();
    const res = await http.post(path, {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 100,
      temperature: 0.2,
      tools: [{ type: 'function', function: { name: 'run_shell' } }],
      base_url: 'http://evil.test',
      api_key: 'sk-other',
      n: 5,
    });
    expect(res.status).toBe(200);
    expect(fake.requests[0]!.body).toEqual({
      model: 'configured-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      // Asked by the app itself, so that the usage it reports is the provider's own.
      stream_options: { include_usage: true },
      max_tokens: 100,
      temperature: 0.2,
    });
  });

  it('refuses more than 50 messages with 400 in OpenAI’s error shape', async () => {
    const { sdk } = await signedIn();
    const messages = Array.from({ length: aiLimits.maxMessages + 1 }, () => ({ role: 'user' as const, content: 'hi' }));
    const error = await apiError(sdk.chat.completions.create({ model: 'gpt-4o', messages }));
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ message: 'A request can carry at most 50 messages', type: 'invalid_request_error' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses roles other than system, user and assistant', async () => {
    const { http } = await signedIn();
    const res = await http.post(path, { model: 'gpt-4o', messages: [{ role: 'tool', content: 'rm -rf /' }] });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ message: 'Each message role must be system, user or assistant', type: 'invalid_request_error', code: 'invalid_request' });
  });

  it('refuses a message over 20,000 characters and a conversation over 100,000', async () => {
    const { http } = await signedIn();
    const tooLong = await http.post(path, { messages: [{ role: 'user', content: 'x'.repeat(aiLimits.maxMessageChars + 1) }] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.message).toBe('Each message can be at most 20,000 characters');
    // Over 100 kB of JSON: this route takes larger bodies than the rest of /api.
    const tooMuch = await http.post(path, { messages: Array.from({ length: 6 }, () => ({ role: 'user', content: 'é'.repeat(19_000) })) });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.error.message).toBe('All messages together can be at most 100,000 characters');
    const fits = await http.post(path, { messages: Array.from({ length: 5 }, () => ({ role: 'user', content: 'é'.repeat(19_000) })) });
    expect(fits.status).toBe(200);
  });

  it('answers malformed JSON with 400 in OpenAI’s error shape', async () => {
    const { http } = await signedIn();
    const res = await http.request('POST', path, '{"messages": [', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('invalid_request_error');
  });

  it('limits each user to 30 requests a minute, with Retry-After', async () => {
    const { http } = await signedIn();
    const other = await signedIn();
    for (let i = 0; i < 30; i++) {
      expect((await http.post(path, { messages: [{ role: 'user', content: `hi ${i}` }] })).status).toBe(200);
    }
    const limited = await http.post(path, { messages: [{ role: 'user', content: 'one more' }] });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(limited.json.error.message).toMatch(/^Too many requests to the coach\. Please wait \d+ seconds? and try again\.$/);
    // Another user is not affected.
    expect((await other.http.post(path, { messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);
  });

  it('answers a provider failure with 502 and the spec text', async () => {
    fake.behave({ status: 500 });
    const { sdk } = await signedIn();
    const error = await apiError(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.status).toBe(502);
    expect(error.error).toMatchObject({ message: chatTexts.replyFailed, type: 'api_error', code: 'provider_error' });
  });

  it('answers a provider failure before the first token of a stream with 502 too', async () => {
    fake.behave({ status: 429, retryAfterSeconds: 0 });
    const { sdk } = await signedIn();
    const error = await apiError(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }));
    expect(error.status).toBe(502);
    expect(error.message).toContain(chatTexts.replyFailed);
  });

  it('reports a stream that breaks off mid-way as an error event the SDK throws', async () => {
    fake.behave({ tokens: ['Part', 'ial', ' answer', ' never', ' ends'], failAfterTokens: 3 });
    const { sdk } = await signedIn();
    const stream = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    const error = await apiError(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
    );
    expect(text).toBe('Partial answer');
    expect(error.message).toContain(chatTexts.replyFailed);
  });

  it('stops the model call when the client goes away mid-stream', async () => {
    fake.behave({ tokens: Array.from({ length: 200 }, (_, i) => ` w${i}`), tokenDelayMs: 10 });
    const { sdk } = await signedIn();
    const controller = new AbortController();
    const stream = await sdk.chat.completions.create(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content && ++received === 3) controller.abort();
    }
    await expect.poll(() => fake.requests[0]?.disconnected, { timeout: 3_000 }).toBe(true);
    expect(fake.tokenWrites.length).toBeLessThan(100);
  });

  it('serves the demo user to a visitor without a session in demo mode', async () => {
    fake.behave({ reply: 'Hello demo.' });
    const visitor = new HttpClient(server.url);
    const res = await visitor.post(path, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.json.choices[0].message.content).toBe('Hello demo.');
  });
});

describe('OpenAI-compatible chat completions without demo mode', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
  });
  afterAll(() => closed.stop());

  it('refuses a visitor who is not signed in with 401', async () => {
    // Without a cookie, the SDK's bearer token is taken as an API key: a wrong one.
    const sdk = new OpenAI({ apiKey: 'sk-anything', baseURL: `${closed.url}/api/openai`, maxRetries: 0 });
    const error = await apiError(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.status).toBe(401);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    // With no credentials at all.
    const res = await fetch(`${closed.url}/api/openai/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({ message: authTexts.notAuthenticated, code: 'invalid_api_key' });
    expect(fake.requests).toHaveLength(0);
  });

  it('serves a signed-in user', async () => {
    const { sdk } = await signedIn(closed.url);
    const completion = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).toBe('Hello from the fake model.');
  });
});

describe('OpenAI-compatible chat completions with the offline coach', () => {
  let offline: TestServer;
  beforeAll(async () => {
    offline = await startTestServer({});
  });
  afterAll(() => offline.stop());

  it('answers from the offline coach, plain and streamed, personalised for the user', async () => {
    const { sdk } = await signedIn(offline.url);
    const messages = [{ role: 'user' as const, content: 'Help me set a SMART goal' }];
    const completion = await sdk.chat.completions.create({ model: 'gpt-4o', messages });
    expect(completion.model).toBe('offline-coach');
    expect(completion.choices[0]!.message.content).toContain("Let's shape a SMART goal, Jane");

    const stream = await sdk.chat.completions.create({ model: 'gpt-4o', messages, stream: true });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      chunks++;
    }
    expect(text).toBe(completion.choices[0]!.message.content);
    expect(chunks).toBeGreaterThan(10);
  });
});
