import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../test/fakes/openai.js';
import { createCoachModel } from './index.js';
import { createOpenAiModel } from './openaiModel.js';
import { ProviderError, type CoachModel } from './contract.js';

const apiKey = 'sk-test-secret-key-0123456789';
let fake: FakeOpenAI;
let model: CoachModel;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  model = createOpenAiModel({ apiKey, baseUrl: fake.url, model: 'gpt-4o', timeoutMs: 5_000 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const user = [{ role: 'user' as const, content: 'Help me plan my week' }];

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const deltas: string[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

async function failure(stream: AsyncIterable<string>): Promise<ProviderError> {
  try {
    await collect(stream);
  } catch (error) {
    return error as ProviderError;
  }
  throw new Error('expected the stream to fail');
}

describe('OpenAI-compatible model', () => {
  it('streams the deltas in order with the configured model, key and messages', async () => {
    fake.behave({ tokens: ['Let', "'s", ' plan', ' it', '.'] });
    const deltas = await collect(model.stream({ messages: [{ role: 'system', content: 'Be brief' }, ...user], maxTokens: 200, temperature: 0.3 }));
    expect(deltas).toEqual(['Let', "'s", ' plan', ' it', '.']);
    const request = fake.requests[0]!;
    expect(request.authorization).toBe(true);
    expect(request.body).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      max_tokens: 200,
      temperature: 0.3,
      messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Help me plan my week' }],
    });
  });

  it('turns a 429 into a retryable ProviderError after one retry', async () => {
    fake.behave({ status: 429, retryAfterSeconds: 0 });
    const error = await failure(model.stream({ messages: user }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 429, retryable: true });
    expect(fake.requests).toHaveLength(2); // maxRetries: 1
  });

  it('turns a 500 into a retryable ProviderError', async () => {
    fake.behave({ status: 500 });
    const error = await failure(model.stream({ messages: user }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 500, retryable: true });
  });

  it('turns a refused key into a ProviderError that is not retryable and does not carry the key', async () => {
    fake.behave({ status: 401 });
    const error = await failure(model.stream({ messages: user }));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.message).not.toContain(apiKey);
    expect(fake.requests).toHaveLength(1);
  });

  it('throws a ProviderError when the stream breaks off mid-way', async () => {
    fake.behave({ tokens: ['One', ' two', ' three', ' four'], failAfterTokens: 2 });
    const received: string[] = [];
    let caught: unknown;
    try {
      for await (const delta of model.stream({ messages: user })) received.push(delta);
    } catch (error) {
      caught = error;
    }
    expect(received).toEqual(['One', ' two']);
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).retryable).toBe(true);
  });

  it('stops promptly and quietly when aborted, and closes the request', async () => {
    fake.behave({ tokens: Array.from({ length: 100 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
    const controller = new AbortController();
    const received: string[] = [];
    const started = Date.now();
    for await (const delta of model.stream({ messages: user, signal: controller.signal })) {
      received.push(delta);
      if (received.length === 3) controller.abort();
    }
    expect(received.length).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect.poll(() => fake.requests[0]!.disconnected).toBe(true);
  });

  it('reports an unreachable server as a retryable ProviderError', async () => {
    const offline = createOpenAiModel({ apiKey, baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o', timeoutMs: 2_000 });
    const error = await failure(offline.stream({ messages: user }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain(apiKey);
  });
});

describe('createCoachModel', () => {
  it('uses the OpenAI-compatible model when a key is set', () => {
    const coach = createCoachModel({ apiKey: 'k', baseUrl: fake.url, model: 'llama3' });
    expect(coach).toMatchObject({ kind: 'openai', model: 'llama3' });
  });

  it('falls back to the offline coach without a key', () => {
    expect(createCoachModel({ apiKey: undefined, baseUrl: undefined, model: 'gpt-4o' })).toMatchObject({ kind: 'offline', model: 'offline-coach' });
  });
});
