import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayHoldMemory } from '../../src/server/features/memories/memoryRules.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type HttpClient, type TestServer } from '../helpers/server.js';

// Memory extraction through a model costs a call: it is made only for messages that may hold a
// fact worth keeping, on OPENAI_MEMORY_MODEL when set, and counted in the user's daily model quota.

describe('which messages may hold a memory (the pre-filter before a model is asked)', () => {
  it.each([
    'I lead a team of 8 engineers',
    'My manager is Priya and she wants weekly updates',
    "We're hiring two engineers by February",
    'I will send the budget by Friday',
    'Our offsite is in Lisbon this year',
  ])('asks about: %s', (message) => {
    expect(mayHoldMemory(message)).toBe(true);
  });

  it.each(['What is the GROW model?', 'How do I run a retro?', 'Can you help me write an email?', 'yes', 'Friendly', 'Start a SMART goal'])('skips: %s', (message) => {
    expect(mayHoldMemory(message)).toBe(false);
  });
});

describe('extraction through the model: which model, when, and its cost', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer({
      DEMO_MODE: 'false',
      OPENAI_API_KEY: 'sk-test-memory',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MEMORY_MODEL: 'small-memory-model',
      MODEL_DAILY_QUOTA: '3',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  async function say(http: HttpClient, chatId: number, content: string) {
    const sent = await http.post(`/api/chats/${chatId}/messages`, { content });
    await server.deps.replies.settled();
    return sent;
  }
  const extractionCalls = () => fake.requests.filter((r) => r.body.response_format);

  it('asks the memory model only about a message that may hold a fact, and each call takes a turn of the day', async () => {
    fake.reset();
    fake.behave({ reply: (body) => (body.response_format ? '{"memories":[]}' : 'Noted.') });
    const { http } = await signUp(server.url, `extract-${++users}-${Date.now()}`, 'Jane Doe');
    const chat = (await http.post('/api/chats', {})).json as { id: number };

    expect((await say(http, chat.id, 'What is the GROW model?')).status).toBe(201);
    expect(extractionCalls()).toHaveLength(0); // turn 1 of 3: the reply only

    expect((await say(http, chat.id, 'I lead a team of 8 engineers')).status).toBe(201);
    const calls = extractionCalls();
    expect(calls).toHaveLength(1); // turns 2 and 3: the reply and the extraction
    expect(calls[0]!.body.model).toBe('small-memory-model');
    expect(fake.requests.filter((r) => !r.body.response_format).every((r) => r.body.model !== 'small-memory-model')).toBe(true);

    // The extraction took the day's last turn: the next message is refused.
    const refused = await say(http, chat.id, 'And what about OKRs?');
    expect(refused.status).toBe(429);
  });

  it('keeps nothing sensitive and no "if" as a commitment, whatever the model answers, and its prompt says so', async () => {
    fake.reset();
    fake.behave({
      reply: (body) =>
        body.response_format
          ? JSON.stringify({
              memories: [
                // The model ignores its prompt: sensitive, unflagged.
                { text: 'Has been on antidepressants since the divorce', kind: 'fact', dueAt: null, sensitive: false },
                // Flagged by the model itself, in words the app's rules would not catch.
                { text: 'Going through a hard time at home', kind: 'fact', dueAt: null, sensitive: true },
                // A plan under an 'if', its condition dropped by the model.
                { text: 'Will quit by Friday', kind: 'commitment', dueAt: '2099-01-02T17:00:00Z', sensitive: false },
                { text: 'Leads the platform team', kind: 'fact', dueAt: null, sensitive: false },
              ],
            })
          : 'That sounds like a lot to carry.',
    });
    const { http } = await signUp(server.url, `extract-${++users}-${Date.now()}`, 'Kim Park');
    const chat = (await http.post('/api/chats', {})).json as { id: number };
    const message = "I'm a wreck since my divorce and I've been on antidepressants. I lead the platform team. I'll quit by Friday if nothing changes.";
    expect((await say(http, chat.id, message)).status).toBe(201);
    const [call] = extractionCalls();
    const prompt = String(call!.body.messages![0]!.content);
    expect(prompt).toContain('Never keep');
    for (const topic of ['health', 'emotions', 'family', 'beliefs', 'pay', 'discrimination', 'legal matters', 'personal details']) expect(prompt).toContain(topic);
    expect(prompt).toContain('is not a commitment');
    const kept = (await http.get('/api/memories')).json.memories as Array<{ text: string; kind: string; sensitive: boolean }>;
    expect(kept).toEqual([expect.objectContaining({ text: 'Leads the platform team', kind: 'fact', sensitive: false })]);
    // The next chat asks about no commitment.
    const next = (await http.post('/api/chats', {})).json as { id: number };
    expect((await http.get(`/api/chats/${next.id}/messages`)).json).toEqual([]);
  });

  it('makes no extraction call once the day’s turns are spent', async () => {
    fake.reset();
    fake.behave({ reply: (body) => (body.response_format ? '{"memories":[]}' : 'Noted.') });
    const { http } = await signUp(server.url, `extract-${++users}-${Date.now()}`, 'Sam Lee');
    const chat = (await http.post('/api/chats', {})).json as { id: number };
    expect((await say(http, chat.id, 'How do I run a retro?')).status).toBe(201);
    expect((await say(http, chat.id, 'What makes a good agenda?')).status).toBe(201);
    // The third message takes the last turn for its reply: its fact is not extracted.
    expect((await say(http, chat.id, 'I manage the platform team')).status).toBe(201);
    expect(extractionCalls()).toHaveLength(0);
  });
});
