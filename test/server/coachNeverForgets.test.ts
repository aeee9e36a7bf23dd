import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp, trpcClientFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/trust.js';

// The coach never forgets: the earlier turns stay in its history after a reply stopped before its
// first word, and a provider stream that stalls is stopped with its partial text kept.
let server: TestServer;
let fake: FakeOpenAI;

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({
    DEMO_MODE: 'false',
    RATE_LIMIT_LOGIN_PER_ADDRESS: '0',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.url,
    MODEL_STALL_TIMEOUT_SECONDS: '1',
  });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe('the coach never forgets', () => {
  it('keeps the earlier turns after a reply stopped before its first word', async () => {
    const { http } = await signUp(server.url, 'forgetful');
    const chat = (await http.post('/api/chats')).json;
    fake.behave({ reply: 'Paris is the capital of France.' });
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'What is the capital of France?' });
    await eventually(async () => (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1).status === 'complete');

    fake.behave({ tokens: ['late'], tokenDelayMs: 5000 });
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'And of Spain?' });
    const { client, close } = trpcClientFor(server.url, http);
    await client.chats.stop.mutate({ chatId: chat.id });
    close();
    const stopped = await eventually(async () => {
      const last = (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1);
      return last.status === 'stopped' ? last : undefined;
    });
    expect(stopped.content).toBe('');

    fake.behave({ reply: 'Madrid.' });
    const before = fake.replyRequests().length;
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'Which of the two did I ask about first?' });
    const asked = await eventually(() => fake.replyRequests()[before]);
    const sent = asked.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(sent).toEqual(['What is the capital of France?', 'Paris is the capital of France.', 'And of Spain?', 'Which of the two did I ask about first?']);
  });

  it('stops a stalled provider stream, keeps the partial text and tells the user', async () => {
    const { http } = await signUp(server.url, 'stalled');
    const chat = (await http.post('/api/chats')).json;
    fake.behave({ tokens: ['Half', ' an', ' answer', ' never', ' ends'], stallAfterTokens: 3 });
    const ws = openSocket('/ws', http.cookieHeader, server.url);
    await ws.outcome;
    ws.ws.send(JSON.stringify({ type: 'chat_message', chatId: chat.id, content: 'Tell me everything' }));
    const error = await eventually(() => ws.frames.find((f) => f.type === 'error'), 5000);
    expect(error.message).toBe(chatTexts.replyStalled);
    const last = (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1);
    expect(last).toMatchObject({ role: 'assistant', status: 'stopped', content: 'Half an answer' });
    ws.ws.close();
    // The chat takes messages again.
    fake.behave({ reply: 'Done.' });
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'again' })).status).toBe(201);
  });
});
