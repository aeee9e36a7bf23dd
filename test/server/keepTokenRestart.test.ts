import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoiceTurnEvent } from '../../src/shared/schemas/voice.js';
import { voiceTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';

// A provisional voice turn's keep token is spent once: the spent nonce is kept in the
// database, so a restart of the server (on the embedded database, where limits live in memory)
// does not make a spent token good again.
describe('keep tokens across a restart', { timeout: 180_000 }, () => {
  let model: FakeOpenAI;
  let database: FreshDatabase;
  let server: TestServer | undefined;

  const start = () => startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: model.url }, database);

  beforeAll(async () => {
    model = await startFakeOpenAI();
    database = await freshDatabase();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.dispose();
    await model?.close();
  });

  it('refuses a spent keep token after the server restarts', async () => {
    server = await start();
    model.behave({ reply: 'Start with the outcome.' });
    const { http } = await signUp(server.url, 'keep-restart');
    const res = await http.post('/api/voice/turn', { chatId: null, text: 'How do I start?', provisional: true });
    expect(res.status).toBe(200);
    const done = res.text.trim().split('\n').map((line) => JSON.parse(line) as VoiceTurnEvent).find((e) => e.type === 'done') as Extract<VoiceTurnEvent, { type: 'done' }>;
    const keep = done.keep!;
    expect((await http.post('/api/voice/keep', { keep })).status).toBe(200);
    expect((await http.post('/api/voice/keep', { keep })).json.message).toBe(voiceTexts.keepSpent);

    await server.stop();
    server = await start();
    const again = new HttpClient(server.url);
    expect((await again.post('/api/auth/login', { username: 'keep-restart', password: 'secret123' })).status).toBe(200);
    const replay = await again.post('/api/voice/keep', { keep });
    expect(replay.status).toBe(400);
    expect(replay.json.message).toBe(voiceTexts.keepSpent);
    const chats = (await again.get('/api/chats')).json as Array<{ id: number }>;
    expect(chats).toHaveLength(1);
    expect((await again.get(`/api/chats/${chats[0]!.id}/messages`)).json).toHaveLength(2);
  });
});
