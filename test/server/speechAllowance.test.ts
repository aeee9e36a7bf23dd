import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoiceTurnEvent } from '../../src/shared/schemas/voice.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';

// A voice turn's speech allowance covers the reply's own sentences, not any text: with
// it, a sentence of the reply is spoken without a daily model turn of its own; any other text sent
// with it takes a daily turn like a request without an allowance.
describe('the speech allowance of a voice turn', { timeout: 120_000 }, () => {
  let model: FakeOpenAI;
  let server: TestServer;

  beforeAll(async () => {
    model = await startFakeOpenAI();
    server = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: model.url, MODEL_DAILY_QUOTA: '3' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it('speaks the reply\'s sentences free of the daily quota, and charges a daily turn for any other text', async () => {
    model.behave({ reply: 'Name the outcome first. Then plan the opening line.' });
    const { http } = await signUp(server.url, 'allowance-user');
    // The turn takes the first of the day's three model turns.
    const res = await http.post('/api/voice/turn', { chatId: null, text: 'How do I open the talk?' });
    expect(res.status).toBe(200);
    const done = res.text.trim().split('\n').map((line) => JSON.parse(line) as VoiceTurnEvent).find((e) => e.type === 'done') as Extract<VoiceTurnEvent, { type: 'done' }> & { allowance: string };
    const allowance = done.allowance;
    expect(allowance).toEqual(expect.any(String));
    const speak = (text: string) => http.post('/api/voice/synthesize', { text, allowance });

    // The reply's own sentences, as often as the allowance lasts: no daily turn.
    for (const sentence of ['Name the outcome first.', 'Then plan the opening line.', 'Name the outcome first.']) expect((await speak(sentence)).status).toBe(200);
    // Other text with the same allowance: a daily turn each (the second and third of the day), then 429.
    expect((await speak('Read this whole book aloud, chapter one.')).status).toBe(200);
    expect((await speak('And chapter two, please.')).status).toBe(200);
    const refused = await speak('And chapter three.');
    expect(refused.status).toBe(429);
    // The reply's sentences are still covered.
    expect((await speak('Then plan the opening line.')).status).toBe(200);
  });
});
