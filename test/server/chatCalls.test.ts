import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Message } from '../../src/server/db/entities/Message.js';
import { PhoneCall } from '../../src/server/db/entities/PhoneCall.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { nudgesTexts } from '../../src/shared/texts/nudges.js';
import { phoneTexts, rehearsalTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, systemTextOf, type FakeOpenAI } from '../fakes/openai.js';
import { rehearsalSetUp } from '../helpers/rehearsal.js';
import { postSignedWebhook, startFakeTwilio, type FakeCall, type FakeTwilio } from '../fakes/twilio/index.js';
import { connectRelay, type RelayClient } from '../fakes/twilio/relay.js';
import { eventually, signUp } from '../helpers/clients.js';
import { twilioEnv } from '../helpers/phone.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// A call bound to a chat (a rehearsal by phone, a nudge by phone) through the
// real server, the fake Twilio (Calls API, signed webhooks, the ConversationRelay socket) and the
// fake model: the chat rides in the call's signed webhook URL, the relay's spoken turns go into
// that chat, the other person of a rehearsal speaks with a voice of its own (on the phone and in the
// browser's speech requests), and a chat that is not the caller's is refused.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const publicUrl = 'https://coach.example.com';
let twilio: FakeTwilio;
let openai: FakeOpenAI;
let server: TestServer;
let users = 0;
let phones = 0;
const open: RelayClient[] = [];

beforeAll(async () => {
  twilio = await startFakeTwilio();
  openai = await startFakeOpenAI();
  server = await startTestServer({
    DEMO_MODE: 'false',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: openai.url,
    ...twilioEnv(twilio, publicUrl),
    // Config-driven voices: the coach's and the other person's, in the browser.
    OPENAI_SPEECH_VOICE: 'nova',
    OPENAI_COUNTERPART_VOICE: 'sage',
  });
});
afterAll(async () => {
  for (const client of open) client.close();
  await server?.stop();
  await twilio?.close();
  await openai?.close();
});
beforeEach(() => openai.reset());

const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml).Response;
const systemText = systemTextOf;

const setUp = rehearsalSetUp;

/** A user whose profile phone is verified (as the SMS code would leave it). */
async function userWithPhone(options: { verified?: boolean } = {}) {
  const account = await signUp(server.url, `call-${++users}-${Date.now() % 100000}`, 'Jane Doe');
  const phone = `+1555300${String(++phones).padStart(4, '0')}`;
  const em = server.deps.orm.em.fork();
  const settings = (await em.findOne(UserSettings, { user: account.user.id })) ?? em.create(UserSettings, { user: account.user.id });
  settings.phone = phone;
  settings.phoneVerifiedAt = options.verified === false ? null : new Date();
  await em.flush();
  return { ...account, phone };
}

/** Twilio answering the call it placed: the signed webhook of the call's own URL (or `url`, a changed one). */
async function answerPlaced(call: FakeCall, url = call.url) {
  const target = new URL(url);
  const res = await postSignedWebhook({
    authToken: twilio.authToken,
    signedUrl: url,
    targetUrl: `${server.url}${target.pathname}${target.search}`,
    params: { CallSid: call.sid, From: '+15550001111', To: call.to, Direction: 'outbound-api' },
  });
  expect(res.status).toBe(200);
  return parse(res.text);
}

/** The relay socket Twilio opens for the answered call. */
async function relayOf(call: FakeCall, twiml: ReturnType<typeof parse>) {
  const relay = twiml.Connect.ConversationRelay;
  const client = await connectRelay({ targetUrl: `${server.url.replace('http', 'ws')}/api/twilio/relay`, signedUrl: relay['@url'], authToken: twilio.authToken });
  open.push(client);
  client.setup({ callSid: call.sid, callId: relay.Parameter['@value'], to: call.to });
  return client;
}

const messagesOf = async (http: HttpClient, chatId: number) => (await http.get(`/api/chats/${chatId}/messages`)).json as Array<{ role: string; content: string }>;

describe('a rehearsal held by phone', () => {
  it('the other person calls the verified number, in a voice of their own, and each turn goes into the rehearsal chat', async () => {
    const { http, phone } = await userWithPhone();
    const { id, chatId } = (await http.post('/api/rehearsals', setUp)).json as { id: number; chatId: number };
    const placed = await http.post(`/api/rehearsals/${id}/call`);
    expect(placed.status).toBe(202);
    expect(placed.json).toEqual({ callSid: expect.stringMatching(/^CA[0-9a-f]{32}$/), chatId, message: rehearsalTexts.callPlaced('Sam Rivera') });
    const call = twilio.calls.at(-1)!;
    expect(call).toMatchObject({ sid: placed.json.callSid, to: phone, from: '+15550001111' });
    // The chat rides in the URL Twilio signs, bound to the user by a grant under the server's secret.
    const query = new URL(call.url).searchParams;
    expect(query.get('chat')).toBe(String(chatId));
    expect(query.get('grant')).toMatch(/^[0-9a-f]{64}$/);

    const twiml = await answerPlaced(call);
    const relay = twiml.Connect.ConversationRelay;
    // The counterpart's voice, not the coach's (TWILIO_RELAY_COUNTERPART_VOICE's default), and an in-character greeting.
    expect(relay['@voice']).toBe('en-US-Journey-D');
    expect(relay['@ttsProvider']).toBe('Google');
    expect(relay['@welcomeGreeting']).toBe(phoneTexts.rehearsalGreeting('Sam Rivera'));
    const state = await server.deps.orm.em.fork().findOneOrFail(PhoneCall, { callSid: call.sid });
    expect(state.chat?.id).toBe(chatId);

    const client = await relayOf(call, twiml);
    openai.behave({ reply: 'Why should I accept that?' });
    client.prompt('Sam, the launch date has to move by two weeks.');
    expect((await client.nextReply()).text).toBe('Why should I accept that?');
    const prompt = systemText(openai.replyRequests().at(-1)!.body);
    // The person is named inside the fenced data, never in the instruction itself.
    expect(prompt).toContain('You play the other person');
    expect(prompt).toContain('Sam Rivera');
    expect(prompt).toContain('This rehearsal is spoken');
    expect(prompt).not.toContain('GOAL-MARKER');
    await eventually(async () => (await messagesOf(http, chatId)).length === 2);
    expect((await messagesOf(http, chatId)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Sam, the launch date has to move by two weeks.'],
      ['assistant', 'Why should I accept that?'],
    ]);
    // The second turn hears the first: the call's turns are one conversation in the chat.
    openai.behave({ reply: 'Fine. Show me the plan.' });
    client.prompt('Because the vendor was late, and I have a plan.');
    expect((await client.nextReply()).text).toBe('Fine. Show me the plan.');
    const second = openai.replyRequests().at(-1)!.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(second).toEqual(['Sam, the launch date has to move by two weeks.', 'Why should I accept that?', 'Because the vendor was late, and I have a plan.']);
  });

  it('refuses a chat that is not the caller’s: another user’s rehearsal, a swapped chat or user, a made-up grant', async () => {
    const alice = await userWithPhone();
    const bob = await userWithPhone();
    const aliceRehearsal = (await alice.http.post('/api/rehearsals', setUp)).json as { id: number; chatId: number };
    const bobRehearsal = (await bob.http.post('/api/rehearsals', setUp)).json as { id: number; chatId: number };
    const calls = twilio.calls.length;
    // Bob cannot have Alice's rehearsal called (404, as for every rehearsal of someone else's).
    const foreign = await bob.http.post(`/api/rehearsals/${aliceRehearsal.id}/call`);
    expect(foreign.status).toBe(404);
    expect(twilio.calls.length).toBe(calls);

    expect((await bob.http.post(`/api/rehearsals/${bobRehearsal.id}/call`)).status).toBe(202);
    const call = twilio.calls.at(-1)!;
    const swapped = (change: Record<string, string>) => {
      const url = new URL(call.url);
      for (const [key, value] of Object.entries(change)) url.searchParams.set(key, value);
      return url.toString();
    };
    // Even a URL Twilio signed (whoever could make Twilio fetch it) binds nothing without the grant for that user and chat.
    for (const url of [swapped({ chat: String(aliceRehearsal.chatId) }), swapped({ user: String(alice.user.id), chat: String(aliceRehearsal.chatId) }), swapped({ grant: 'a'.repeat(64) }), swapped({ exp: '1' })]) {
      const twiml = await answerPlaced({ ...call, sid: `CA${'f'.repeat(31)}${String(url.length % 10)}` }, url);
      expect(twiml.Hangup).toBeDefined();
      expect(twiml.Connect).toBeUndefined();
    }
    expect(await server.deps.orm.em.fork().count(PhoneCall, { chat: aliceRehearsal.chatId })).toBe(0);
    // Bob's own call is bound to Bob's chat.
    await answerPlaced(call);
    expect((await server.deps.orm.em.fork().findOneOrFail(PhoneCall, { callSid: call.sid })).chat?.id).toBe(bobRehearsal.chatId);

    // An API key, even with the chat scope that reaches rehearsals, rings no phone.
    const key = await bob.http.post('/api/api-keys', { name: 'chat-key', scopes: ['chat'] });
    expect(key.status).toBe(201);
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key.json.key}` } });
    expect((await script.get(`/api/rehearsals/${bobRehearsal.id}`)).status).toBe(200);
    const before = twilio.calls.length;
    expect((await script.post(`/api/rehearsals/${bobRehearsal.id}/call`)).status).toBe(403);
    expect(twilio.calls.length).toBe(before);
  });

  it('says why a call cannot be placed: no verified number; not configured', async () => {
    const { http } = await userWithPhone({ verified: false });
    const { id } = (await http.post('/api/rehearsals', setUp)).json as { id: number };
    const unverified = await http.post(`/api/rehearsals/${id}/call`);
    expect(unverified.status).toBe(412);
    expect(unverified.json.message).toBe(phoneTexts.chatCallNoVerifiedPhone);
    // What the rehearsal's 'Call me' reads to show itself.
    expect((await http.get('/trpc/twilio.status')).json.result.data).toEqual({ configured: true, verifiedPhone: false, turnedOffByOrganisation: false });

    const plain = await startTestServer({ DEMO_MODE: 'false' });
    try {
      const other = await signUp(plain.url, 'no-twilio-user', 'Jane Doe');
      const rehearsal = (await other.http.post('/api/rehearsals', setUp)).json as { id: number };
      const res = await other.http.post(`/api/rehearsals/${rehearsal.id}/call`);
      expect(res.status).toBe(412);
      expect(res.json.message).toBe(phoneTexts.notConfigured);
    } finally {
      await plain.stop();
    }
  });
});

describe('the other person’s voice in the browser', () => {
  it('speech under a rehearsal turn’s allowance uses OPENAI_COUNTERPART_VOICE; the coach’s, OPENAI_SPEECH_VOICE', async () => {
    const { http } = await userWithPhone();
    const { chatId } = (await http.post('/api/rehearsals', setUp)).json as { chatId: number };
    const spoken = async (body: Record<string, unknown>) => {
      const turn = await http.post('/api/voice/turn', body);
      expect(turn.status).toBe(200);
      const done = turn.text.trim().split('\n').map((line) => JSON.parse(line)).find((e: { type: string }) => e.type === 'done');
      // What the browser sends (voiceApi.ts asks for 'alloy'): the server decides by the turn's speaker.
      const speech = await http.post('/api/voice/synthesize', { text: done.reply, voice: 'alloy', format: 'pcm', allowance: done.allowance });
      expect(speech.status).toBe(200);
      return openai.audioRequests.filter((r) => r.path === '/v1/audio/speech').at(-1)!.body as { voice: string; input: string };
    };
    openai.behave({ reply: 'Why now?' });
    expect(await spoken({ chatId, text: 'Sam, the date has to move.' })).toMatchObject({ voice: 'sage', input: 'Why now?' });
    openai.behave({ reply: 'Start with the date.' });
    expect(await spoken({ chatId: null, text: 'How do I tell Sam?' })).toMatchObject({ voice: 'nova', input: 'Start with the date.' });
    // Without an allowance: the voice asked for, else the coach's.
    expect((await http.post('/api/voice/synthesize', { text: 'Hello there.' })).status).toBe(200);
    expect(openai.audioRequests.at(-1)!.body).toMatchObject({ voice: 'nova' });
    expect((await http.post('/api/voice/synthesize', { text: 'Hello there.', voice: 'echo' })).status).toBe(200);
    expect(openai.audioRequests.at(-1)!.body).toMatchObject({ voice: 'echo' });
  });
});

describe('a rehearsal continued after its report', () => {
  it('the report posted as a coach message is not in the other person’s history', async () => {
    const { http } = await userWithPhone();
    const { id, chatId } = (await http.post('/api/rehearsals', setUp)).json as { id: number; chatId: number };
    const fork = server.deps.orm.em.fork();
    fork.create(Message, { chat: chatId, role: 'user', content: 'Sam, the launch has to move.', status: 'complete' });
    fork.create(Message, { chat: chatId, role: 'assistant', content: 'Why?', status: 'complete' });
    await fork.flush();
    openai.behave({ reply: 'not json' });
    expect((await http.post(`/api/rehearsals/${id}/feedback`)).status).toBe(200);
    const report = (await messagesOf(http, chatId)).at(-1)!;
    expect(report.content).toContain(rehearsalTexts.reportHeading);

    openai.reset();
    openai.behave({ reply: 'Go on.' });
    // Written, then spoken: neither turn's history holds the report.
    expect((await http.post(`/api/chats/${chatId}/messages`, { content: 'Because the vendor was late.' })).status).toBe(201);
    await server.deps.replies.settled();
    const voice = await http.post('/api/voice/turn', { chatId, text: 'And I have a plan.' });
    expect(voice.status).toBe(200);
    const requests = openai.replyRequests();
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      const said = request.body.messages!.filter((m) => m.role !== 'system').map((m) => String(m.content));
      expect(said.slice(0, 2)).toEqual(['Sam, the launch has to move.', 'Why?']);
      expect(said.join('\n')).not.toContain(rehearsalTexts.reportHeading);
    }
  });
});

describe('nudges by phone', () => {
  const runsOf = async (http: HttpClient) => (await http.get('/api/nudges/runs')).json.runs as Array<{ id: number; status: string; channels: string[]; reason: string | null; chatId: number | null }>;
  /** Twilio's status callback when the call ends, to the call's own callback URL (or `url`). */
  const callEnded = (call: FakeCall, status: string, url = call.statusCallback!) => {
    const target = new URL(url);
    return postSignedWebhook({ authToken: twilio.authToken, signedUrl: url, targetUrl: `${server.url}${target.pathname}${target.search}`, params: { CallSid: call.sid, CallStatus: status } });
  };
  const runNow = async (http: HttpClient) => {
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: false, push: false, call: true } })).status).toBe(200);
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(run.status).toBe(202);
    return eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
  };

  it('a weekly review with the call channel calls about the review chat and holds it as a conversation', async () => {
    const { http, phone, user } = await userWithPhone();
    const run = await runNow(http);
    expect(run).toMatchObject({ status: 'sent', channels: ['app', 'call'], reason: null, chatId: expect.any(Number) });
    // The next planned review says it will call too.
    expect((await runsOf(http)).find((r) => r.status === 'queued')).toMatchObject({ channels: ['app', 'call'] });
    const call = twilio.calls.at(-1)!;
    expect(call.to).toBe(phone);
    expect(new URL(call.url).searchParams.get('chat')).toBe(String(run.chatId));
    expect(new URL(call.url).searchParams.get('user')).toBe(String(user.id));

    const twiml = await answerPlaced(call);
    const relay = twiml.Connect.ConversationRelay;
    const title = ((await http.get('/api/chats')).json as Array<{ id: number; title: string }>).find((c) => c.id === run.chatId)!.title;
    expect(relay['@welcomeGreeting']).toBe(phoneTexts.chatGreeting('Jane', title));
    // The coach's own voice (Twilio's default here), not the other person's.
    expect(relay['@voice']).toBeUndefined();
    const client = await relayOf(call, twiml);
    openai.behave({ reply: 'Then start with the board deck today.' });
    client.prompt('I want to talk about the overdue deck.');
    expect((await client.nextReply()).text).toBe('Then start with the board deck today.');
    const messages = await eventually(async () => {
      const all = await messagesOf(http, run.chatId!);
      return all.length === 3 && all;
    });
    // The review, then the spoken turn, in the review's chat; the coach heard the review.
    expect(messages[0]!.role).toBe('assistant');
    expect(messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'I want to talk about the overdue deck.'],
      ['assistant', 'Then start with the board deck today.'],
    ]);
    const request = openai.replyRequests().at(-1)!.body;
    expect(request.messages!.filter((m) => m.role !== 'system').map((m) => m.content)[0]).toBe(messages[0]!.content);
    expect(systemText(request)).toContain('Jane Doe');
    // The call ends normally: the run stays sent.
    expect((await callEnded(call, 'completed')).status).toBe(204);
    expect((await runsOf(http)).find((r) => r.id === run.id)).toMatchObject({ status: 'sent', channels: ['app', 'call'] });
  });

  it('a call placed but not answered fails its run with why; a forged status callback changes nothing', async () => {
    const { http } = await userWithPhone();
    const run = await runNow(http);
    expect(run).toMatchObject({ status: 'sent', channels: ['app', 'call'] });
    const call = twilio.calls.at(-1)!;
    expect(new URL(call.statusCallback!).pathname).toBe('/api/twilio/voice/nudge-call-status');
    // Signed by Twilio but with a made-up grant, or not signed at all: nothing happens.
    const forged = new URL(call.statusCallback!);
    forged.searchParams.set('grant', 'b'.repeat(64));
    expect((await callEnded(call, 'no-answer', forged.toString())).status).toBe(204);
    expect((await postSignedWebhook({ authToken: 'not-the-token', signedUrl: call.statusCallback!, targetUrl: `${server.url}${new URL(call.statusCallback!).pathname}${new URL(call.statusCallback!).search}`, params: { CallSid: call.sid, CallStatus: 'no-answer' } })).status).toBe(403);
    expect((await runsOf(http)).find((r) => r.id === run.id)).toMatchObject({ status: 'sent' });

    expect((await callEnded(call, 'no-answer')).status).toBe(204);
    expect((await runsOf(http)).find((r) => r.id === run.id)).toMatchObject({ status: 'failed', channels: ['app'], reason: nudgesTexts.reasonCallNotAnswered('no-answer') });
  });

  it('fails the run with the reason when Twilio refuses the call, or there is no verified number', async () => {
    const refused = await userWithPhone();
    twilio.refuseCallsTo.add(refused.phone);
    const run = await runNow(refused.http);
    expect(run).toMatchObject({ status: 'failed', channels: ['app'], reason: nudgesTexts.reasonCallFailed(phoneTexts.providerFailed), chatId: expect.any(Number) });
    expect(twilio.refused.at(-1)).toEqual({ status: 400, code: 21215 });

    const unverified = await userWithPhone({ verified: false });
    const calls = twilio.calls.length;
    expect(await runNow(unverified.http)).toMatchObject({ status: 'failed', reason: nudgesTexts.reasonCallFailed(phoneTexts.chatCallNoVerifiedPhone) });
    expect(twilio.calls.length).toBe(calls);
  });
});
