import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyLimits } from '../../src/shared/schemas/apiKeys.js';
import { apiKeyTexts, authTexts } from '../../src/shared/texts/index.js';
import { fakePromptTokens, startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { signUp } from '../helpers/clients.js';
import { apiError } from '../helpers/openaiErrors.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Personal API keys: their life cycle over REST, `Authorization: Bearer` on REST and
// /api/openai without any cookie, and the official openai SDK for JavaScript as a third-party client.
let fake: FakeOpenAI;
let server: TestServer;
let offline: TestServer;
let userCount = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  [server, offline] = await Promise.all([
    startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'configured-model' }),
    // Demo mode on, offline coach, and a small guess budget per address.
    startTestServer({ DEMO_MODE: 'true', RATE_LIMIT_LOGIN_PER_ADDRESS: '4' }),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await offline?.stop();
  await fake?.close();
});
beforeEach(() => fake.reset());

async function userWithKey(baseUrl = server.url, name = 'Laptop script') {
  const { http, user } = await signUp(baseUrl, `key-user-${++userCount}-${Date.now()}`);
  const created = await http.post('/api/api-keys', { name });
  expect(created.status).toBe(201);
  return { http, user, key: created.json.key as string, id: created.json.id as number };
}

/** A client with no cookie and no Origin: a script. */
function bearer(key: string, baseUrl = server.url) {
  return new HttpClient(baseUrl, { origin: false, headers: { authorization: `Bearer ${key}` } });
}

function sdkFor(key: string, baseUrl = server.url) {
  return new OpenAI({ apiKey: key, baseURL: `${baseUrl}/api/openai`, maxRetries: 0 });
}

describe('API key life cycle', () => {
  it('creates a key shown once, lists it without the key, signs a script in with it, and refuses it once revoked', async () => {
    const { http, key, id } = await userWithKey();
    expect(key).toMatch(/^aic_[A-Za-z0-9_-]{43,}$/);

    const list = await http.get('/api/api-keys');
    expect(list.status).toBe(200);
    expect(list.json.keys).toEqual([{ id, name: 'Laptop script', prefix: key.slice(0, 12), createdAt: expect.any(String), lastUsedAt: null, expiresAt: null, scopes: ['chat'] }]);
    expect(list.text).not.toContain(key.slice(12));

    const script = bearer(key);
    const created = await script.post('/api/chats', { title: 'From a script' });
    expect(created.status).toBe(201);
    expect((await script.get('/api/chats')).json.map((chat: { title: string }) => chat.title)).toContain('From a script');
    expect((await http.get('/api/api-keys')).json.keys[0].lastUsedAt).toEqual(expect.any(String));

    expect((await http.delete(`/api/api-keys/${id}`)).status).toBe(204);
    const refused = await script.get('/api/chats');
    expect(refused.status).toBe(401);
    expect(refused.json.message).toBe(apiKeyTexts.invalidKey);
    expect((await http.get('/api/api-keys')).json.keys).toEqual([]);
  });

  it('validates the name, and allows at most ten keys a user', async () => {
    const { http } = await signUp(server.url, `key-limit-${Date.now()}`);
    expect(await http.post('/api/api-keys', { name: '   ' })).toMatchObject({ status: 400, json: { message: apiKeyTexts.nameRequired } });
    expect(await http.post('/api/api-keys', { name: 'x'.repeat(61) })).toMatchObject({ status: 400, json: { message: apiKeyTexts.nameTooLong } });
    expect(await http.post('/api/api-keys', {})).toMatchObject({ status: 400 });
    const trimmed = await http.post('/api/api-keys', { name: '  CI  ' });
    expect(trimmed.json.name).toBe('CI');
    for (let i = 1; i < apiKeyLimits.maxKeys; i++) expect((await http.post('/api/api-keys', { name: `key ${i}` })).status).toBe(201);
    const eleventh = await http.post('/api/api-keys', { name: 'one too many' });
    expect(eleventh).toMatchObject({ status: 409, json: { message: apiKeyTexts.tooMany(apiKeyLimits.maxKeys) } });
    expect((await http.get('/api/api-keys')).json.keys).toHaveLength(apiKeyLimits.maxKeys);
  });

  it('manages keys only from a registered account’s browser session: never with a key, never as a demo visitor or guest', async () => {
    const { key } = await userWithKey();
    const script = bearer(key);
    expect(await script.post('/api/api-keys', { name: 'minted by a key' })).toMatchObject({ status: 403, json: { message: apiKeyTexts.notWithApiKey } });
    expect((await script.get('/api/api-keys')).status).toBe(403);
    expect((await script.post('/api/auth/logout')).status).toBe(403);

    const visitor = new HttpClient(offline.url);
    expect(await visitor.post('/api/api-keys', { name: 'demo' })).toMatchObject({ status: 403, json: { message: authTexts.accountRequiredFor.apiKeys } });
    // A guest space (made by the visitor's first write) is refused the same way.
    expect((await visitor.post('/api/chats', {})).status).toBe(201);
    expect(await visitor.post('/api/api-keys', { name: 'guest' })).toMatchObject({ status: 403, json: { message: authTexts.accountRequiredFor.apiKeys } });
  });

  it('keeps each key to its owner: another user’s key id is 404, and a key reaches only its owner’s chats', async () => {
    const alice = await userWithKey();
    const bob = await userWithKey();
    await alice.http.post('/api/chats', { title: 'Alice private' });
    const bobsView = await bearer(bob.key).get('/api/chats');
    expect(bobsView.text).not.toContain('Alice private');
    expect(await bob.http.delete(`/api/api-keys/${alice.id}`)).toMatchObject({ status: 404, json: { message: apiKeyTexts.notFound } });
    expect(await bob.http.delete('/api/api-keys/999999')).toMatchObject({ status: 404 });
    expect((await bearer(alice.key).get('/api/chats')).status).toBe(200);
  });

  it('refuses a key at once when its account is deleted', async () => {
    const { http, key } = await userWithKey();
    expect((await bearer(key).get('/api/chats')).status).toBe(200);
    expect((await http.post('/trpc/privacy.deleteAccount', { confirmation: 'DELETE' })).status).toBe(200);
    expect((await bearer(key).get('/api/chats')).status).toBe(401);
  });

  it('keeps the cookie in charge when a browser-side SDK sends a placeholder bearer next to it', async () => {
    const { http } = await signUp(server.url, `cookie-and-bearer-${Date.now()}`);
    const res = await http.get('/api/chats', { authorization: 'Bearer not-a-key' });
    expect(res.status).toBe(200);
  });
});

describe('the OpenAI-compatible surface with a key', () => {
  it('lists the configured model, and answers one model or 404 in OpenAI’s shape', async () => {
    const { key } = await userWithKey();
    const sdk = sdkFor(key);
    const models = [];
    for await (const model of sdk.models.list()) models.push(model);
    expect(models).toEqual([{ id: 'configured-model', object: 'model', created: expect.any(Number), owned_by: 'ai-coach' }]);
    expect(await sdk.models.retrieve('configured-model')).toMatchObject({ id: 'configured-model', object: 'model' });
    const unknown = await apiError(sdk.models.retrieve('gpt-unknown'));
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ message: expect.stringContaining('gpt-unknown'), type: 'invalid_request_error', code: 'model_not_found', param: null });
  });

  it('names the offline coach as the model when no model key is set', async () => {
    const { key } = await userWithKey(offline.url);
    const models = await sdkFor(key, offline.url).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['offline-coach']);
  });

  it('answers a completion with the provider’s usage', async () => {
    fake.behave({ reply: 'Name the outcome first.' });
    const { key } = await userWithKey();
    const completion = await sdkFor(key).chat.completions.create({ model: 'anything', messages: [{ role: 'user', content: 'Help me plan' }] });
    expect(completion.choices[0]!.message.content).toBe('Name the outcome first.');
    expect(completion.usage).toEqual({ prompt_tokens: fakePromptTokens, completion_tokens: 4, total_tokens: fakePromptTokens + 4 });
  });

  it('counts the usage itself when the provider reports none', async () => {
    fake.behave({ reply: 'Name the outcome first.', reportUsage: false });
    const { key } = await userWithKey();
    const completion = await sdkFor(key).chat.completions.create({ model: 'anything', messages: [{ role: 'user', content: 'Help me plan' }] });
    const usage = completion.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan(2);
    expect(usage.prompt_tokens).toBeLessThan(20);
    expect(usage.completion_tokens).toBe(5); // o200k: 'Name', ' the', ' outcome', ' first', '.'
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it('ends a stream with a usage chunk when include_usage is asked, and without one otherwise', async () => {
    fake.behave({ reply: 'One step at a time.' });
    const { key } = await userWithKey();
    const sdk = sdkFor(key);
    const chunks = [];
    for await (const chunk of await sdk.chat.completions.create({ model: 'x', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }] })) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: fakePromptTokens, completion_tokens: 5, total_tokens: fakePromptTokens + 5 });
    expect(chunks.slice(0, -1).every((chunk) => !chunk.usage)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('One step at a time.');

    const plain = [];
    for await (const chunk of await sdk.chat.completions.create({ model: 'x', stream: true, messages: [{ role: 'user', content: 'Hi' }] })) plain.push(chunk);
    expect(plain.every((chunk) => !chunk.usage && chunk.choices.length === 1)).toBe(true);
  });

  it('answers a wrong key, a bad body and an unknown path in OpenAI’s error shape', async () => {
    const wrong = await apiError(sdkFor('aic_wrong-key-wrong-key-wrong-key-wrong-key-wrong').chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(wrong.status).toBe(401);
    expect(wrong.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key', message: apiKeyTexts.invalidKey });

    const { key } = await userWithKey();
    const bad = await apiError(sdkFor(key).chat.completions.create({ model: 'x', messages: [] }));
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });

    const res = await bearer(key).get('/api/openai/embeddings');
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_url' });
  });
});

// Last: it spends the demo server's guess budget for this address.
describe('guessing keys', () => {
  it('answers a wrong key 401 even in demo mode, and counts wrong keys against the address, in parallel too', async () => {
    const wrong = bearer('aic_this-key-does-not-exist-0123456789012345678901', offline.url);
    expect((await wrong.get('/api/chats')).status).toBe(401);
    const answers = await Promise.all(Array.from({ length: 8 }, () => wrong.get('/api/chats')));
    const statuses = answers.map((a) => a.status);
    // The budget is 4 per address and one was spent above: 3 more 401s, then 429s.
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
