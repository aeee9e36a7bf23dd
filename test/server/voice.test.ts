import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enforceDataRetention, temporaryChatIdleMs } from '../../src/server/features/privacy/dataRetention.js';
import { chatTexts, coachTexts, commonTexts, voiceTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import type { VoiceTurnEvent } from '../../src/shared/schemas/voice.js';
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

  /** POST /api/voice/turn: the streamed events (application/x-ndjson), its `done`, or the refusal's message. */
  async function turn(http: HttpClient, body: unknown) {
    const res = await http.post('/api/voice/turn', body);
    const events = res.status === 200 ? (res.text.trim().split('\n').map((line) => JSON.parse(line)) as VoiceTurnEvent[]) : [];
    const done = events.find((e) => e.type === 'done') as Extract<VoiceTurnEvent, { type: 'done' }> | undefined;
    return { status: res.status, events, done: done ? { ...done, chatId: done.chatId! } : undefined, message: res.json?.message as string | undefined };
  }

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
    const first = await turn(alice.http, { chatId: null, text: 'How do I give feedback?' });
    expect(first.status).toBe(200);
    const { chatId, reply } = first.done!;
    expect(reply).toBe('Start with what you noticed. Then ask how they see it.');
    const system = fake.requests[0]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(system).toContain('2 to 3');
    expect(system).toContain('Alice Voice');
    const second = await turn(alice.http, { chatId, text: 'And if they disagree?' });
    expect(second.done!.chatId).toBe(chatId);
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
    const foreign = await turn(bob.http, { chatId, text: 'Hello?' });
    expect(foreign.status).toBe(404);
    const empty = await turn(bob.http, { chatId: null, text: '  ' });
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
    const asked = fake.replyRequests().length;

    fake.behave({ reply: 'Start with the two quietest people. Ask what would help.' });
    const answered = await turn(erin.http, { chatId: chat.json.id, text: 'Who should I start with?' });

    expect(answered.status).toBe(200);
    expect(answered.done!.chatId).toBe(chat.json.id);
    // The typed turns reach the model before what was said, after the voice rule.
    const messages = fake.replyRequests()[asked]!.body.messages!;
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
    const foreign = await turn(mallory.http, { chatId: chat.json.id, text: 'What did Erin say?' });
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

    const call = await turn(dana.http, { chatId: null, text: 'How do I give feedback?' });
    expect(call.status).toBe(200);
    const { chatId } = call.done!;
    expect((await turn(dana.http, { chatId, text: 'And then?' })).done!.chatId).toBe(chatId);
    expect((await chatsOf()).find((c) => c.id === chatId)?.isTemporary).toBe(true);
    // Left for another chat: deleted.
    const next = await dana.http.post('/api/chats', {});
    expect((await chatsOf()).map((c) => c.id)).toEqual([next.json.id]);

    // Left idle: the retention job removes it after an hour.
    const idle = (await turn(dana.http, { chatId: null, text: 'One more thing.' })).done!.chatId;
    await dana.http.delete(`/api/chats/${next.json.id}`);
    expect((await chatsOf()).map((c) => c.id)).toEqual([idle]);
    await enforceDataRetention(server.deps.orm, new Date(Date.now() + temporaryChatIdleMs + 60_000));
    expect(await chatsOf()).toEqual([]);
  });

  it('refuses a voice turn past RATE_LIMIT_CHAT_PER_MINUTE with a 429', async () => {
    const limited = await startTestServer({ DEMO_MODE: 'false', RATE_LIMIT_CHAT_PER_MINUTE: '2' });
    try {
      const { http } = await signUp(limited.url, 'voice-limited');
      const first = await turn(http, { chatId: null, text: 'Help me plan my week.' });
      expect(first.status).toBe(200);
      const { chatId } = first.done!;
      expect((await turn(http, { chatId, text: 'And the meetings?' })).status).toBe(200);
      const refused = await turn(http, { chatId, text: 'And the rest?' });
      expect(refused.status).toBe(429);
      expect(refused.message).toBe(coachTexts.rateLimited(Number(/wait (\d+)/.exec(refused.message ?? '')?.[1])));
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
    expect((await turn(carol.http, { chatId: null, text: 'Who should I tell first?' })).status).toBe(200);
    expect(systemOf(0)).not.toContain('Working on delegating more.');

    expect((await carol.http.post('/trpc/knowledgeBase.save', { ...kb, useKnowledgeBase: true })).status).toBe(200);
    expect((await turn(carol.http, { chatId: null, text: 'Who should I tell first?' })).status).toBe(200);
    expect(systemOf(1)).toContain('Working on delegating more.');
    expect(systemOf(1)).toContain('Priya Shah');
  });

  it('streams the turn: tokens arrive while the model is still writing, then done with the saved message', async () => {
    fake.behave({ tokens: ['Name ', 'the ', 'outcome. ', 'Then ', 'plan ', 'the ', 'first ', 'line.'], tokenDelayMs: 80 });
    const { http } = await signUp(server.url, 'voice-stream');
    const res = await fetch(`${server.url}/api/voice/turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: http.cookieHeader, origin: server.url },
      body: JSON.stringify({ chatId: null, text: 'How do I start?' }),
    });
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const reader = res.body!.getReader();
    const first = await reader.read();
    const firstAt = process.hrtime.bigint();
    expect(JSON.parse(new TextDecoder().decode(first.value!).split('\n')[0]!)).toEqual({ type: 'token', text: 'Name ' });
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
    const lastWrite = fake.tokenWrites.find((w) => w.index === 7)!;
    expect(firstAt < lastWrite.writtenAtNs).toBe(true);
    const done = rest.trim().split('\n').map((line) => JSON.parse(line)).at(-1);
    expect(done).toMatchObject({ type: 'done', reply: 'Name the outcome. Then plan the first line.', messageId: expect.any(Number), chatId: expect.any(Number) });
  });

  it('stores what the user heard of an interrupted reply, only their own and only a beginning of it', async () => {
    fake.behave({ reply: 'First name the outcome. Then plan your opening line. Then listen.' });
    const ivy = await signUp(server.url, 'voice-ivy');
    const { done } = await turn(ivy.http, { chatId: null, text: 'Help me prepare.' });
    const mallory = await signUp(server.url, 'voice-mallory-heard');
    expect((await mallory.http.post('/api/voice/heard', { messageId: done!.messageId, heard: 'First' })).status).toBe(404);
    const mismatch = await ivy.http.post('/api/voice/heard', { messageId: done!.messageId, heard: 'Something I never said.' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.message).toBe(voiceTexts.heardNotInReply);
    expect((await ivy.http.post('/api/voice/heard', { messageId: done!.messageId, heard: 'First name the outcome.' })).status).toBe(200);
    const messages = (await ivy.http.get(`/api/chats/${done!.chatId}/messages`)).json as Array<{ role: string; content: string; status: string }>;
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'First name the outcome.', status: 'stopped' });
  });

  it('holds a provisional (speculative) turn until it is kept, then saves it as heard; refuses a forged, foreign, mismatched or replayed keep', async () => {
    fake.behave({ reply: 'Name the outcome first. Then plan the opening line.' });
    const kim = await signUp(server.url, 'voice-kim');
    const held = await turn(kim.http, { chatId: null, text: 'How do I open the talk?', provisional: true });
    expect(held.status).toBe(200);
    expect(held.done).toMatchObject({ chatId: null, messageId: null, reply: 'Name the outcome first. Then plan the opening line.', keep: expect.any(String) });
    // Nothing is stored before the keep.
    expect((await kim.http.get('/api/chats')).json).toEqual([]);

    const [body, signature] = held.done!.keep!.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), r: 'Something else.' })).toString('base64url');
    for (const keep of [`${forged}.${signature}`, 'not-a-token', `${body}.`]) {
      const refused = await kim.http.post('/api/voice/keep', { keep });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toBe(voiceTexts.keepInvalid);
    }
    const lee = await signUp(server.url, 'voice-lee');
    expect((await lee.http.post('/api/voice/keep', { keep: held.done!.keep })).status).toBe(400);
    expect((await kim.http.post('/api/voice/keep', { keep: held.done!.keep, heard: 'Plan something.' })).json.message).toBe(voiceTexts.heardNotInReply);

    const kept = await kim.http.post('/api/voice/keep', { keep: held.done!.keep, heard: 'Name the outcome first.' });
    expect(kept.status).toBe(200);
    expect(kept.json).toEqual({ chatId: expect.any(Number), messageId: expect.any(Number) });
    // A token is kept once: a replay, even with another 'heard', saves nothing.
    for (const heard of [undefined, 'Name the outcome first.']) {
      const replay = await kim.http.post('/api/voice/keep', { keep: held.done!.keep, ...(heard ? { heard } : {}) });
      expect(replay.status).toBe(400);
      expect(replay.json.message).toBe(voiceTexts.keepSpent);
    }
    const messages = (await kim.http.get(`/api/chats/${kept.json.chatId}/messages`)).json as Array<{ role: string; content: string; status: string }>;
    expect(messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'How do I open the talk?', 'complete'],
      ['assistant', 'Name the outcome first.', 'stopped'],
    ]);
    // The next provisional turn of the call carries its chat, and is kept whole.
    const next = await turn(kim.http, { chatId: kept.json.chatId, text: 'And then?', provisional: true });
    expect(next.done!.chatId).toBe(kept.json.chatId);
    const whole = await kim.http.post('/api/voice/keep', { keep: next.done!.keep });
    expect(whole.json.chatId).toBe(kept.json.chatId);
    expect(((await kim.http.get(`/api/chats/${kept.json.chatId}/messages`)).json as Array<{ content: string; status: string }>).at(-1)).toMatchObject({ content: 'Name the outcome first. Then plan the opening line.', status: 'complete' });
  });

  it('discards a provisional turn the client leaves: the model request is aborted and nothing is stored', async () => {
    fake.behave({ reply: 'Too late to hear this.', firstTokenDelayMs: 5000 });
    const max = await signUp(server.url, 'voice-max');
    const leaving = new AbortController();
    const res = fetch(`${server.url}/api/voice/turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: max.http.cookieHeader, origin: server.url },
      body: JSON.stringify({ chatId: null, text: 'Wait, I was not done', provisional: true }),
      signal: leaving.signal,
    }).catch(() => null);
    await eventually(() => fake.requests.length === 1);
    leaving.abort();
    await res;
    await eventually(() => fake.requests[0]!.disconnected);
    // A save of the discarded turn would start as the model request ended. A turn the user sends
    // afterwards is stored only after its own model reply, so once it is stored, the chats show
    // whether the discarded one was saved too: they must hold the new turn alone.
    fake.behave({ reply: 'Here now.' });
    const after = await turn(max.http, { chatId: null, text: 'Hello again' });
    expect(after.status).toBe(200);
    const chats = (await max.http.get('/api/chats')).json as Array<{ id: number }>;
    expect(chats.map((c) => c.id)).toEqual([after.done!.chatId]);
    const messages = (await max.http.get(`/api/chats/${after.done!.chatId}/messages`)).json as Array<{ content: string }>;
    expect(messages.map((m) => m.content)).toEqual(['Hello again', 'Here now.']);
  }, 60_000);

  /** POST /api/voice/turn with the recording itself (audio/*), the chat and `provisional` in the query. */
  async function audioTurn(http: HttpClient, query: string, audio: Buffer<ArrayBuffer> = webm, type = 'audio/webm') {
    const res = await fetch(`${server.url}/api/voice/turn${query}`, { method: 'POST', headers: { 'content-type': type, cookie: http.cookieHeader, origin: server.url }, body: audio });
    const text = await res.text();
    const events = res.status === 200 ? (text.trim().split('\n').map((line) => JSON.parse(line)) as VoiceTurnEvent[]) : [];
    return { status: res.status, events, message: res.status === 200 ? undefined : (JSON.parse(text) as { message: string }).message };
  }

  it('answers a turn sent as the recording: transcribed and answered in one request, the transcript first', async () => {
    fake.behave({ transcription: 'How do I open the meeting?', tokens: ['Name ', 'the ', 'goal.'] });
    const { http } = await signUp(server.url, 'voice-audio-turn');
    const first = await audioTurn(http, '');
    expect(first.status).toBe(200);
    expect(first.events.map((e) => e.type)).toEqual(['transcript', 'token', 'token', 'token', 'done']);
    expect(first.events[0]).toEqual({ type: 'transcript', text: 'How do I open the meeting?', allowance: expect.any(String) });
    const done = first.events.at(-1) as Extract<VoiceTurnEvent, { type: 'done' }>;
    expect(done).toMatchObject({ reply: 'Name the goal.', messageId: expect.any(Number), chatId: expect.any(Number) });
    expect(fake.audioRequests.at(-1)).toMatchObject({ fileName: 'speech.webm', fileBytes: webm.byteLength });
    expect(fake.replyRequests().at(-1)!.body.messages!.at(-1)).toEqual({ role: 'user', content: 'How do I open the meeting?' });
    // The next turn of the call, provisional: answered in the call's chat (its history heard), saved only when kept.
    const next = await audioTurn(http, `?chatId=${done.chatId}&provisional=true`);
    const held = next.events.at(-1) as Extract<VoiceTurnEvent, { type: 'done' }>;
    expect(held).toMatchObject({ chatId: done.chatId, messageId: null, keep: expect.any(String) });
    expect(fake.replyRequests().at(-1)!.body.messages!.some((m) => m.role === 'assistant' && m.content === 'Name the goal.')).toBe(true);
    expect((await http.get(`/api/chats/${done.chatId}/messages`)).json).toHaveLength(2);
    expect((await http.post('/api/voice/keep', { keep: held.keep })).status).toBe(200);
    expect((await http.get(`/api/chats/${done.chatId}/messages`)).json).toHaveLength(4);
  });

  it('ends a recording without words with an empty turn: no model request, nothing saved', async () => {
    fake.behave({ transcription: '  ' });
    const { http } = await signUp(server.url, 'voice-audio-silent');
    const silent = await audioTurn(http, '');
    expect(silent.events).toEqual([
      { type: 'transcript', text: '' },
      { type: 'done', chatId: null, messageId: null, reply: '' },
    ]);
    expect(fake.requests).toHaveLength(0);
    expect((await http.get('/api/chats')).json).toEqual([]);
  });

  it('refuses a recorded turn before reading it, or before the provider, with a message', async () => {
    const { http } = await signUp(server.url, 'voice-audio-refused');
    const stranger = await fetch(`${server.url}/api/voice/turn`, { method: 'POST', headers: { 'content-type': 'audio/webm', origin: server.url }, body: webm });
    expect(stranger.status).toBe(401);
    expect((await audioTurn(http, '?chatId=abc')).message).toBe(voiceTexts.chatIdNotNumber);
    expect((await audioTurn(http, '?provisional=maybe')).message).toBe(voiceTexts.provisionalNotBoolean);
    expect((await audioTurn(http, '', webm, 'audio/x-unknown')).status).toBe(415);
    const other = await signUp(server.url, 'voice-audio-other');
    const theirs = await other.http.post('/api/chats', { title: 'Mine' });
    expect((await audioTurn(http, `?chatId=${theirs.json.id}`)).status).toBe(404);
    expect(fake.audioRequests).toHaveLength(0);
    // A transcription that fails answers 502 with the transcription's message; nothing is asked of the model.
    fake.behave({ status: 500 });
    const failed = await audioTurn(http, '');
    expect(failed).toMatchObject({ status: 502, message: voiceTexts.transcriptionError });
    expect(fake.requests).toHaveLength(0);
  });

  it('takes a binary upload (audio/*) or multipart, names the file by its type, and refuses other types', async () => {
    const { http } = await signUp(server.url, 'voice-binary');
    const headers = { cookie: http.cookieHeader, origin: server.url };
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(2000)]);
    const binary = await fetch(`${server.url}/api/voice/transcribe`, { method: 'POST', headers: { ...headers, 'content-type': 'audio/wav' }, body: wav });
    expect(binary.status).toBe(200);
    expect(await binary.json()).toEqual({ success: true, transcription: defaultFakeTranscription });
    expect(fake.audioRequests.at(-1)).toMatchObject({ fileName: 'speech.wav', fileBytes: wav.byteLength });

    const form = new FormData();
    form.append('file', new Blob([webm], { type: 'audio/webm' }), 'turn.webm');
    const multipart = await fetch(`${server.url}/api/voice/transcribe`, { method: 'POST', headers, body: form });
    expect(multipart.status).toBe(200);
    expect(fake.audioRequests.at(-1)).toMatchObject({ fileName: 'speech.webm', fileBytes: webm.byteLength });

    const asked = fake.audioRequests.length;
    const text = await fetch(`${server.url}/api/voice/transcribe`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(415);
    expect((await text.json()).message).toBe(voiceTexts.audioUnsupportedType);
    const video = await fetch(`${server.url}/api/voice/transcribe`, { method: 'POST', headers: { ...headers, 'content-type': 'audio/x-unknown' }, body: wav });
    expect(video.status).toBe(415);
    expect(fake.audioRequests.length).toBe(asked);
  });

  it('refuses a recording over 25 MB, and a body without a session, without reading it', async () => {
    const { http } = await signUp(server.url, 'voice-large');
    const { request } = await import('node:http');
    // Declares 30 MB and sends 1 KB: an answer that comes means the body was never waited for.
    const send = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
        const req = request(`${server.url}/api/voice/transcribe`, { method: 'POST', headers: { 'content-type': 'audio/webm', 'content-length': String(30 * 1024 * 1024), ...headers } }, (res) => {
          let body = '';
          res.on('data', (part) => (body += part));
          res.on('end', () => resolve({ status: res.statusCode!, body, closed: res.headers.connection === 'close' }));
        });
        req.on('error', reject);
        req.write(Buffer.alloc(1024));
      });
    const anonymous = await send({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.closed).toBe(true);
    const tooLarge = await send({ cookie: http.cookieHeader, origin: server.url });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).message).toBe(voiceTexts.audioTooLarge);
    expect(tooLarge.closed).toBe(true);
    // Streamed without a declared length: cut off once past the cap.
    const chunked = await fetch(`${server.url}/api/voice/transcribe`, {
      method: 'POST',
      headers: { 'content-type': 'audio/webm', cookie: http.cookieHeader, origin: server.url },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 26; i++) controller.enqueue(new Uint8Array(1024 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(fake.audioRequests).toHaveLength(0);
  });

  it("speaks a voice turn's sentences under the turn's own daily turn (its speech allowance), at most 12 of them, for its own user only", async () => {
    const limited = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: fake.url, RATE_LIMIT_VOICE_PER_MINUTE: '0', MODEL_DAILY_QUOTA: '3' });
    // The sentence spoken is the reply's own: an allowance covers only that (speechAllowance.test.ts).
    fake.behave({ reply: 'Name the outcome.' });
    try {
      const recordedTurn = async (http: HttpClient) => {
        const res = await fetch(`${limited.url}/api/voice/turn`, { method: 'POST', headers: { 'content-type': 'audio/webm', cookie: http.cookieHeader, origin: limited.url }, body: webm });
        const first = JSON.parse((await res.text()).split('\n')[0]!) as Extract<VoiceTurnEvent, { type: 'transcript' }>;
        return first.allowance!;
      };
      const speak = async (http: HttpClient, allowance?: string) => (await http.post('/api/voice/synthesize', { text: 'Name the outcome.', voice: 'alloy', format: 'pcm', ...(allowance ? { allowance } : {}) })).status;

      // The turn takes two of the day's three (its transcription and its reply); its 12 sentences none.
      const a = await signUp(limited.url, 'voice-allowance-a');
      const allowance = await recordedTurn(a.http);
      expect(allowance).toEqual(expect.any(String));
      for (let i = 0; i < 12; i++) expect(await speak(a.http, allowance)).toBe(200);
      // The allowance spent, a sentence takes a daily turn as any speech request: the last one, then 429.
      expect(await speak(a.http, allowance)).toBe(200);
      expect(await speak(a.http, allowance)).toBe(429);

      // Another user's allowance, or a forged one, is as none: each request takes the user's own turn.
      const b = await signUp(limited.url, 'voice-allowance-b');
      const own = await recordedTurn(b.http);
      const [body, mac] = own.split('.');
      const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), n: 'a-nonce-of-my-own-choosing' })).toString('base64url')}.${mac}`;
      const c = await signUp(limited.url, 'voice-allowance-c');
      expect(await speak(c.http, own)).toBe(200);
      expect(await speak(c.http, forged)).toBe(200);
      expect(await speak(c.http, allowance)).toBe(200);
      expect(await speak(c.http, own)).toBe(429);

      // A turn sent as text (an API client's) carries its allowance with `done`: its reply's
      // sentences take none of the day's turns either.
      const d = await signUp(limited.url, 'voice-allowance-d');
      const typed = await turn(d.http, { chatId: null, text: 'How do I start?' });
      expect(typed.done?.allowance).toEqual(expect.any(String));
      for (let i = 0; i < 12; i++) expect(await speak(d.http, typed.done!.allowance)).toBe(200);
      expect(await speak(d.http, typed.done!.allowance)).toBe(200);
      expect(await speak(d.http, typed.done!.allowance)).toBe(200);
      expect(await speak(d.http)).toBe(429);
    } finally {
      await limited.stop();
    }
  }, 60_000);

  it('counts transcription and speech against RATE_LIMIT_VOICE_PER_MINUTE and the daily model quota, with 429 and Retry-After', async () => {
    const limited = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: fake.url, RATE_LIMIT_VOICE_PER_MINUTE: '3', MODEL_DAILY_QUOTA: '4' });
    try {
      const a = await signUp(limited.url, 'voice-budget-a');
      expect((await a.http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') })).status).toBe(200);
      expect((await a.http.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' })).status).toBe(200);
      expect((await a.http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') })).status).toBe(200);
      const perMinute = await a.http.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' });
      expect(perMinute.status).toBe(429);
      expect(Number(perMinute.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(perMinute.json.message).toMatch(/Too many voice requests/);
      const binary = await fetch(`${limited.url}/api/voice/transcribe`, { method: 'POST', headers: { 'content-type': 'audio/webm', cookie: a.http.cookieHeader, origin: limited.url }, body: webm });
      expect(binary.status).toBe(429);

      // The day's quota (4) is shared by audio and turns: two audio requests and two turns spend it.
      const b = await signUp(limited.url, 'voice-budget-b');
      expect((await b.http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') })).status).toBe(200);
      expect((await turn(b.http, { chatId: null, text: 'Hello' })).status).toBe(200);
      expect((await b.http.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' })).status).toBe(200);
      expect((await turn(b.http, { chatId: null, text: 'Hello' })).status).toBe(200);
      const daily = await b.http.post('/api/voice/synthesize', { text: 'Hello', voice: 'alloy' });
      expect(daily.status).toBe(429);
      expect(daily.json.message).toBe(chatTexts.dailyQuotaSpent(4));
      expect(Number(daily.headers.get('retry-after'))).toBeGreaterThan(0);

      // A provisional turn given up before its first token gives its turn back; after a token it does not.
      const c = await signUp(limited.url, 'voice-budget-c');
      const leave = async (afterToken: boolean) => {
        const requests = fake.requests.length;
        const leaving = new AbortController();
        const pending = fetch(`${limited.url}/api/voice/turn`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: c.http.cookieHeader, origin: limited.url },
          body: JSON.stringify({ chatId: null, text: 'Hold on', provisional: true }),
          signal: leaving.signal,
        });
        if (afterToken) {
          const res = await pending;
          expect(res.status).toBe(200);
          expect(new TextDecoder().decode((await res.body!.getReader().read()).value)).toContain('One ');
        } else await eventually(() => fake.requests.length > requests);
        leaving.abort();
        await pending.catch(() => null);
        await eventually(() => fake.requests.at(-1)!.disconnected);
      };
      fake.behave({ tokens: ['One ', 'two ', 'three.'], firstTokenDelayMs: 5000 });
      await leave(false);
      await leave(false);
      fake.behave({ tokens: ['One ', 'two ', 'three.'], tokenDelayMs: 500 });
      await leave(true);
      fake.behave({});
      for (let i = 0; i < 3; i++) expect((await turn(c.http, { chatId: null, text: 'Hello' })).status).toBe(200);
      expect((await turn(c.http, { chatId: null, text: 'Hello' })).message).toBe(chatTexts.dailyQuotaSpent(4));

      // A recorded turn given up while it is transcribed (a speculative reply the user talked over)
      // gives the transcription's daily turn back: four turns are still left after two of them.
      const d = await signUp(limited.url, 'voice-budget-d');
      fake.behave({ transcriptionDelayMs: 5000 });
      for (let i = 0; i < 2; i++) {
        const sent = fake.audioRequests.length;
        const leaving = new AbortController();
        const pending = fetch(`${limited.url}/api/voice/turn?provisional=true`, {
          method: 'POST',
          headers: { 'content-type': 'audio/webm', cookie: d.http.cookieHeader, origin: limited.url },
          body: webm,
          signal: leaving.signal,
        }).catch(() => null);
        await eventually(() => fake.audioRequests.length > sent);
        leaving.abort();
        await pending;
      }
      fake.behave({});
      // The server sees each request closed and gives the turn back as the transcription is aborted.
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (let i = 0; i < 4; i++) expect((await turn(d.http, { chatId: null, text: 'Hello' })).status).toBe(200);
      expect((await turn(d.http, { chatId: null, text: 'Hello' })).message).toBe(chatTexts.dailyQuotaSpent(4));
    } finally {
      await limited.stop();
    }
  }, 60_000);
});
