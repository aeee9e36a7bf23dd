import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enforceDataRetention, temporaryChatIdleMs } from '../../src/server/features/privacy/dataRetention.js';
import { coachTexts, commonTexts, voiceTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { defaultFakeTranscription, startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';

// POST /api/voice/transcribe, /api/voice/synthesize and the voice turn, through the real openai
// SDK against the fake OpenAI server.
describe('voice', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let offline: TestServer;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    // Two fresh databases migrate side by side; a loaded machine needs more than the default hook time.
    [server, offline] = await Promise.all([
      startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: fake.url }),
      startTestServer({ DEMO_MODE: 'false' }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await offline?.stop();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const webm = Buffer.from('1a45dfa3a342868101', 'hex');

  it('transcribes base64 webm audio through the provider, with a named upload', async () => {
    const { http } = await signUp(server.url, 'voice-user-1');
    const res = await http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, transcription: defaultFakeTranscription });
    expect(fake.audioRequests).toEqual([expect.objectContaining({ fileName: 'speech.webm', fileType: 'audio/webm', fileBytes: webm.byteLength, model: 'whisper-1' })]);
    // A data URL as FileReader gives it is accepted too.
    const dataUrl = await http.post('/api/voice/transcribe', { audioBlob: `data:audio/webm;codecs=opus;base64,${webm.toString('base64')}` });
    expect(dataUrl.status).toBe(200);
  });

  it('refuses bad recordings with a 4xx before the provider', async () => {
    const { http } = await signUp(server.url, 'voice-user-2');
    const bad: Array<[unknown, number, string]> = [
      [{}, 400, voiceTexts.audioRequired],
      [{ audioBlob: '' }, 400, voiceTexts.audioEmpty],
      [{ audioBlob: 'not base64 at all!' }, 400, voiceTexts.audioNotBase64],
      [{ audioBlob: 'abc' }, 400, voiceTexts.audioNotBase64],
      // Text that cannot be stored is refused at the input boundary, naming the field.
      [{ audioBlob: 'AAAA\u0000' }, 400, commonTexts.unsafeText('audioBlob')],
      [{ audioBlob: '\ud800AAA' }, 400, commonTexts.unsafeText('audioBlob')],
      [{ audioBlob: 12 }, 400, voiceTexts.audioRequired],
      [{ audioBlob: { nested: { deeply: [1, 2, 3] } } }, 400, voiceTexts.audioRequired],
    ];
    for (const [body, status, message] of bad) {
      const res = await http.post('/api/voice/transcribe', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json.message).toBe(message);
    }
    // Over 25 MB of audio: refused as too large (the parser or the schema, both say so).
    const huge = Buffer.alloc(25 * 1024 * 1024 + 3).toString('base64');
    const tooLarge = await http.post('/api/voice/transcribe', { audioBlob: huge });
    expect([400, 413]).toContain(tooLarge.status);
    expect(tooLarge.json.message).toBe(voiceTexts.audioTooLarge);
    const notJson = await http.post('/api/voice/transcribe', '{"audioBlob":');
    expect(notJson.status).toBe(400);
    expect(fake.audioRequests).toHaveLength(0);
  });

  it('needs a session, and a provider', async () => {
    const anonymous = new HttpClient(server.url);
    expect((await anonymous.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') })).status).toBe(401);
    expect((await anonymous.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' })).status).toBe(401);
    const { http } = await signUp(offline.url, 'voice-offline');
    const transcribe = await http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') });
    expect(transcribe.status).toBe(412);
    expect(transcribe.json.message).toBe(voiceTexts.needsProvider);
    const synthesize = await http.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' });
    expect(synthesize.status).toBe(412);
    expect(synthesize.json.message).toBe(voiceTexts.needsProvider);
  });

  it('streams synthesized speech: the first bytes arrive before the provider has finished', async () => {
    fake.behave({ speechChunks: 5, speechChunkDelayMs: 300, speechDurationMs: 1000 });
    const { http } = await signUp(server.url, 'voice-user-3');
    const res = await fetch(`${server.url}/api/voice/synthesize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: http.cookieHeader, origin: server.url },
      body: JSON.stringify({ text: 'You are doing well.', voice: 'alloy' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^audio\//);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    // The fake has written only its first chunk(s): synthesis is still going on.
    expect(fake.speechWrites.length).toBeLessThan(5);
    let total = first.value!.byteLength;
    for (let next = await reader.read(); !next.done; next = await reader.read()) total += next.value.byteLength;
    expect(fake.speechWrites).toHaveLength(5);
    expect(total).toBe(44 + 16000);
    expect(fake.audioRequests[0]!.body).toMatchObject({ input: 'You are doing well.', voice: 'alloy', model: 'tts-1' });
  });

  it('refuses empty text or an unknown voice, and reports a failing provider as 502', async () => {
    const { http } = await signUp(server.url, 'voice-user-4');
    for (const body of [{ text: '', voice: 'alloy' }, { text: '   ' }, { voice: 'alloy' }, { text: 'Hi', voice: 'robot' }, { text: 'x'.repeat(5000) }]) {
      const res = await http.post('/api/voice/synthesize', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(fake.audioRequests).toHaveLength(0);
    fake.behave({ status: 500 });
    const failing = await http.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' });
    expect(failing.status).toBe(502);
    expect(failing.json.message).toBe(voiceTexts.synthesisError);
    const failingTranscription = await http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') });
    expect(failingTranscription.status).toBe(502);
    expect(failingTranscription.json.message).toBe(voiceTexts.transcriptionError);
    expect(failingTranscription.text).not.toContain('sk-test');
  });

  it('answers a voice turn briefly, with the chat context, and saves the call as a chat of its own user', async () => {
    fake.behave({ reply: 'Start with what you noticed. Then ask how they see it.' });
    const alice = await signUp(server.url, 'voice-alice', 'Alice Voice');
    const trpc = (path: string, input: unknown) => alice.http.post(`/trpc/${path}`, input);
    const first = await trpc('voice.turn', { chatId: null, text: 'How do I give feedback?' });
    expect(first.status).toBe(200);
    const { chatId, reply } = first.json.result.data;
    expect(reply).toBe('Start with what you noticed. Then ask how they see it.');
    const system = fake.requests[0]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(system).toContain('2 to 3');
    expect(system).toContain('Alice Voice');
    const second = await trpc('voice.turn', { chatId, text: 'And if they disagree?' });
    expect(second.json.result.data.chatId).toBe(chatId);
    // The earlier turns are part of the second request.
    expect(fake.requests[1]!.body.messages!.map((m) => m.content)).toEqual(expect.arrayContaining(['How do I give feedback?', 'And if they disagree?']));
    const messages = await alice.http.get(`/api/chats/${chatId}/messages`);
    expect(messages.json.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'How do I give feedback?'],
      ['assistant', 'Start with what you noticed. Then ask how they see it.'],
      ['user', 'And if they disagree?'],
      ['assistant', 'Start with what you noticed. Then ask how they see it.'],
    ]);
    const chats = await alice.http.get('/api/chats');
    expect(chats.json.find((c: { id: number; title: string }) => c.id === chatId).title).toMatch(/^Voice call /);

    // Another user cannot add to Alice's call.
    const bob = await signUp(server.url, 'voice-bob');
    const foreign = await bob.http.post('/trpc/voice.turn', { chatId, text: 'Hello?' });
    expect(foreign.status).toBe(404);
    const empty = await bob.http.post('/trpc/voice.turn', { chatId: null, text: '  ' });
    expect(empty.status).toBe(400);
  });

  it("answers a call opened from an open chat with that chat's earlier turns, and saves the call into it", async () => {
    const erin = await signUp(server.url, 'voice-erin', 'Erin Voice');
    // A typed conversation first: the chat the call is opened from.
    fake.behave({ reply: 'Try a weekly one-to-one with each report.' });
    const chat = await erin.http.post('/api/chats', {});
    expect((await erin.http.post(`/api/chats/${chat.json.id}/messages`, { content: 'My team of five feels disconnected.' })).status).toBe(201);
    await eventually(async () => {
      const last = (await erin.http.get(`/api/chats/${chat.json.id}/messages`)).json?.at(-1);
      return last?.role === 'assistant' && last.status !== 'streaming';
    });
    const asked = fake.requests.length;

    fake.behave({ reply: 'Start with the two quietest people. Ask what would help.' });
    const turn = await erin.http.post('/trpc/voice.turn', { chatId: chat.json.id, text: 'Who should I start with?' });

    expect(turn.status).toBe(200);
    expect(turn.json.result.data.chatId).toBe(chat.json.id);
    // The typed turns reach the model before what was said, after the voice rule.
    const messages = fake.requests[asked]!.body.messages!;
    const contents = messages.map((m) => m.content);
    expect(contents).toEqual(expect.arrayContaining(['My team of five feels disconnected.', 'Try a weekly one-to-one with each report.']));
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Who should I start with?' });
    expect(contents.indexOf('My team of five feels disconnected.')).toBeLessThan(contents.length - 1);
    const saved = await erin.http.get(`/api/chats/${chat.json.id}/messages`);
    expect(saved.json.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'My team of five feels disconnected.'],
      ['assistant', 'Try a weekly one-to-one with each report.'],
      ['user', 'Who should I start with?'],
      ['assistant', 'Start with the two quietest people. Ask what would help.'],
    ]);
    // No chat of its own for the call.
    expect(((await erin.http.get('/api/chats')).json as Array<{ id: number }>).map((c) => c.id)).toEqual([chat.json.id]);

    // Another user cannot open a call on Erin's chat, nor read it through the model.
    const mallory = await signUp(server.url, 'voice-mallory');
    const before = fake.requests.length;
    const foreign = await mallory.http.post('/trpc/voice.turn', { chatId: chat.json.id, text: 'What did Erin say?' });
    expect(foreign.status).toBe(404);
    expect(fake.requests.length).toBe(before);
    expect((await erin.http.get(`/api/chats/${chat.json.id}/messages`)).json).toHaveLength(4);
  });

  it("starts a temporary chat for a call while the user's storeChatHistory is off, removed like any temporary chat", async () => {
    fake.behave({ reply: 'Say what you saw. Then listen.' });
    const dana = await signUp(server.url, 'voice-dana', 'Dana Voice');
    const privacy = { dataRetention: '90', shareAnonymousData: false, storeChatHistory: false };
    expect((await dana.http.post('/trpc/profile.updatePrivacy', privacy)).status).toBe(200);
    const chatsOf = async () => (await dana.http.get('/api/chats')).json as Array<{ id: number; isTemporary: boolean }>;

    const call = await dana.http.post('/trpc/voice.turn', { chatId: null, text: 'How do I give feedback?' });
    expect(call.status).toBe(200);
    const { chatId } = call.json.result.data;
    expect((await dana.http.post('/trpc/voice.turn', { chatId, text: 'And then?' })).json.result.data.chatId).toBe(chatId);
    expect((await chatsOf()).find((c) => c.id === chatId)?.isTemporary).toBe(true);
    // Left for another chat: deleted.
    const next = await dana.http.post('/api/chats', {});
    expect((await chatsOf()).map((c) => c.id)).toEqual([next.json.id]);

    // Left idle: the retention job removes it after an hour.
    const idle = (await dana.http.post('/trpc/voice.turn', { chatId: null, text: 'One more thing.' })).json.result.data.chatId;
    await dana.http.delete(`/api/chats/${next.json.id}`);
    expect((await chatsOf()).map((c) => c.id)).toEqual([idle]);
    await enforceDataRetention(server.deps.orm, new Date(Date.now() + temporaryChatIdleMs + 60_000));
    expect(await chatsOf()).toEqual([]);
  });

  it('refuses a voice turn past RATE_LIMIT_CHAT_PER_MINUTE with a 429', async () => {
    const limited = await startTestServer({ DEMO_MODE: 'false', RATE_LIMIT_CHAT_PER_MINUTE: '2' });
    try {
      const { http } = await signUp(limited.url, 'voice-limited');
      const first = await http.post('/trpc/voice.turn', { chatId: null, text: 'Help me plan my week.' });
      expect(first.status).toBe(200);
      const { chatId } = first.json.result.data;
      expect((await http.post('/trpc/voice.turn', { chatId, text: 'And the meetings?' })).status).toBe(200);
      const refused = await http.post('/trpc/voice.turn', { chatId, text: 'And the rest?' });
      expect(refused.status).toBe(429);
      expect(refused.json.error.message).toBe(coachTexts.rateLimited(Number(/wait (\d+)/.exec(refused.json.error.message)?.[1])));
    } finally {
      await limited.stop();
    }
  });

  it("brings the user's knowledge base into a voice turn only while it is switched on", async () => {
    fake.behave({ reply: 'Talk to Priya first. Then tell the team.' });
    const carol = await signUp(server.url, 'voice-carol', 'Carol Voice');
    const kb = {
      useKnowledgeBase: false,
      fullName: 'Carol Voice',
      jobTitle: 'Engineering Manager',
      company: 'Acme',
      manager: 'Priya Shah',
      emailTone: 'Friendly',
      coachNotes: 'Working on delegating more.',
    };
    const systemOf = (index: number) =>
      fake.requests[index]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');

    expect((await carol.http.post('/trpc/knowledgeBase.save', kb)).status).toBe(200);
    expect((await carol.http.post('/trpc/voice.turn', { chatId: null, text: 'Who should I tell first?' })).status).toBe(200);
    expect(systemOf(0)).not.toContain('Working on delegating more.');

    expect((await carol.http.post('/trpc/knowledgeBase.save', { ...kb, useKnowledgeBase: true })).status).toBe(200);
    expect((await carol.http.post('/trpc/voice.turn', { chatId: null, text: 'Who should I tell first?' })).status).toBe(200);
    expect(systemOf(1)).toContain('Working on delegating more.');
    expect(systemOf(1)).toContain('Priya Shah');
  });
});
