import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enforceDataRetention, temporaryChatIdleMs } from '../../src/server/features/privacy/dataRetention.js';
import { commonTexts, phoneTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { verifyPhone } from '../helpers/phone.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { postSignedWebhook, startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';

// POST /api/twilio/voice/call through the real twilio SDK against the fake Calls API, and the
// signed webhooks' TwiML conversation.
const publicUrl = 'https://coach.example.com';

describe('phone calls', () => {
  let twilio: FakeTwilio;
  let model: FakeOpenAI;
  let server: TestServer;
  let unconfigured: TestServer;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    model = await startFakeOpenAI();
    [server, unconfigured] = await Promise.all([startTestServer(configured()), startTestServer({ DEMO_MODE: 'false' })]);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await unconfigured?.stop();
    await twilio?.close();
    await model?.close();
  });
  beforeEach(() => {
    twilio.calls.length = 0;
    model.reset();
  });

  const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml).Response;

  // A server with the model and Twilio configured; `extra` overrides (limits).
  const configured = (extra: Record<string, string> = {}) => ({
    DEMO_MODE: 'false',
    OPENAI_API_KEY: 'sk-test-key-123456',
    OPENAI_BASE_URL: model.url,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_PHONE_NUMBER: '+15550001111',
    TWILIO_API_BASE_URL: twilio.url,
    TWILIO_ALLOWED_COUNTRY_PREFIXES: '+1,+44',
    PUBLIC_URL: publicUrl,
    ...extra,
  });

  // An incoming call from `from` to the app at `target`: the greeting's TwiML, then what each turn answers.
  async function incomingCall(target: TestServer, from: string, callSid: string) {
    const post = async (url: string, params: Record<string, string>) => {
      const res = await postSignedWebhook({ authToken: twilio.authToken, signedUrl: url, targetUrl: target.url + url.slice(publicUrl.length), params });
      expect(res.status).toBe(200);
      expect(res.contentType).toMatch(/xml/);
      return parse(res.text);
    };
    const greeting = await post(`${publicUrl}/api/twilio/voice/incoming`, { CallSid: callSid, From: from, To: '+15550001111', Direction: 'inbound' });
    let action: string = greeting.Gather['@action'];
    return {
      /** Says `text`; the next turn answers at the action this one's TwiML gave. */
      say: async (text: string) => {
        const twiml = await post(action, { CallSid: callSid, From: from, To: '+15550001111', Direction: 'inbound', SpeechResult: text });
        if (twiml.Gather) action = twiml.Gather['@action'];
        return twiml;
      },
    };
  }

  it('asks Twilio to call the number, with webhooks under PUBLIC_URL', async () => {
    const { http, user } = await signUp(server.url, 'phone-user-1');
    await verifyPhone(http, twilio, '+15551234567');
    const res = await http.post('/api/twilio/voice/call', { phoneNumber: '+1 (555) 123-4567' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, callSid: expect.stringMatching(/^CA[0-9a-f]{32}$/), message: phoneTexts.callMessage });
    expect(twilio.calls).toEqual([
      expect.objectContaining({ sid: res.json.callSid, to: '+15551234567', from: '+15550001111', url: `${publicUrl}/api/twilio/voice/incoming?user=${user.id}`, statusCallback: `${publicUrl}/api/twilio/voice/status` }),
    ]);
  });

  it('refuses invalid numbers and other countries without asking Twilio', async () => {
    const { http } = await signUp(server.url, 'phone-user-2');
    for (const phoneNumber of ['12345', 'abc', '', '+1 555 ABC', '+0123456789', '+1'.padEnd(30, '5'), '\u0000+15551234567']) {
      const res = await http.post('/api/twilio/voice/call', { phoneNumber });
      expect(res.status, phoneNumber).toBe(400);
      // Text that cannot be stored is refused at the input boundary, naming the field.
      const expected = phoneNumber === '' ? phoneTexts.numberRequired : phoneNumber.includes('\u0000') ? commonTexts.unsafeText('phoneNumber') : phoneTexts.invalidNumber;
      expect(res.json.message, phoneNumber).toBe(expected);
    }
    expect((await http.post('/api/twilio/voice/call', {})).json.message).toBe(phoneTexts.numberRequired);
    const abroad = await http.post('/api/twilio/voice/call', { phoneNumber: '+882123456789' });
    expect(abroad.status).toBe(400);
    expect(abroad.json.message).toBe(phoneTexts.countryNotAllowed);
    expect(twilio.calls).toHaveLength(0);
  });

  it('rate-limits call requests per user, and needs a session and configuration', async () => {
    const { http } = await signUp(server.url, 'phone-user-3');
    await verifyPhone(http, twilio, '+15551230003');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await http.post('/api/twilio/voice/call', { phoneNumber: '+15551230003' })).status);
    expect(statuses.indexOf(429)).toBeGreaterThan(0);
    expect(statuses.indexOf(429)).toBeLessThan(10);
    // Another user has a budget of their own.
    const other = await signUp(server.url, 'phone-user-4');
    await verifyPhone(other.http, twilio, '+15551230004');
    expect((await other.http.post('/api/twilio/voice/call', { phoneNumber: '+15551230004' })).status).toBe(200);
    expect((await new HttpClient(server.url).post('/api/twilio/voice/call', { phoneNumber: '+15551234567' })).status).toBe(401);
    const lonely = await signUp(unconfigured.url, 'phone-user-5');
    const res = await lonely.http.post('/api/twilio/voice/call', { phoneNumber: '+15551234567' });
    expect(res.status).toBe(412);
    expect(res.json.message).toBe(phoneTexts.notConfigured);
  });

  it('refuses unsigned, wrongly signed, other-URL and altered webhooks with 403', async () => {
    const target = `${server.url}/api/twilio/voice/incoming`;
    const params = { CallSid: 'CA1', From: '+15551230000', To: '+15550001111', Direction: 'inbound' };
    const signedUrl = `${publicUrl}/api/twilio/voice/incoming`;
    const cases = [
      postSignedWebhook({ authToken: twilio.authToken, signedUrl, targetUrl: target, params, signature: null }),
      postSignedWebhook({ authToken: 'another-token', signedUrl, targetUrl: target, params }),
      postSignedWebhook({ authToken: twilio.authToken, signedUrl: `https://evil.example.com/api/twilio/voice/incoming`, targetUrl: target, params }),
      postSignedWebhook({ authToken: twilio.authToken, signedUrl, targetUrl: target, params, sentParams: { ...params, From: '+15559999999' } }),
    ];
    for (const res of await Promise.all(cases)) expect(res.status).toBe(403);
    const good = await postSignedWebhook({ authToken: twilio.authToken, signedUrl, targetUrl: target, params });
    expect(good.status).toBe(200);
  });

  it("saves a call as a temporary chat while the caller's storeChatHistory is off, removed like any temporary chat", async () => {
    model.behave({ reply: 'Start with one small task.' });
    const erin = await signUp(server.url, 'phone-erin', 'Erin Phone');
    expect((await erin.http.post('/trpc/profile.updateProfile', { fullName: 'Erin Phone', phone: '+1 555 444 5555' })).status).toBe(200);
    const privacy = { dataRetention: '90', shareAnonymousData: false, storeChatHistory: false };
    expect((await erin.http.post('/trpc/profile.updatePrivacy', privacy)).status).toBe(200);

    const call = await incomingCall(server, '+15554445555', 'CA5');
    expect((await call.say('How do I delegate?')).Gather.Say).toBe('Start with one small task.');
    expect((await call.say('And then?')).Gather.Say).toBe('Start with one small task.');
    const chats = (await erin.http.get('/api/chats')).json as Array<{ id: number; title: string; isTemporary: boolean }>;
    expect(chats).toEqual([expect.objectContaining({ title: expect.stringMatching(/^Phone call /), isTemporary: true })]);

    // Left idle: the retention job removes it after an hour.
    await enforceDataRetention(server.deps.orm, new Date(Date.now() + temporaryChatIdleMs + 60_000));
    expect((await erin.http.get('/api/chats')).json).toEqual([]);
  });

  it("brings the caller's knowledge base into a phone turn only while useKnowledgeBase is on", async () => {
    model.behave({ reply: 'Talk to your manager first.' });
    const gina = await signUp(server.url, 'phone-gina', 'Gina Phone');
    expect((await gina.http.post('/trpc/profile.updateProfile', { fullName: 'Gina Phone', phone: '+1 555 333 4444' })).status).toBe(200);
    const marker = `kb-phone-marker-${Date.now().toString(36)}`;
    const knowledgeBase = {
      useKnowledgeBase: false,
      fullName: 'Gina Phone',
      jobTitle: 'Engineering Manager',
      company: 'Acme',
      manager: 'Priya Shah',
      emailTone: 'Friendly',
      coachNotes: `Remember ${marker}.`,
    };
    const systemOf = (index: number) =>
      model.requests[index]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');

    expect((await gina.http.post('/trpc/knowledgeBase.save', knowledgeBase)).status).toBe(200);
    const off = await incomingCall(server, '+15553334444', 'CA9');
    expect((await off.say('Who should I tell first?')).Gather.Say).toBe('Talk to your manager first.');
    expect(systemOf(0)).toContain('Gina Phone'); // the caller's context is there, the knowledge base is not
    expect(JSON.stringify(model.requests[0]!.body.messages)).not.toContain(marker);
    expect(systemOf(0)).not.toContain('Priya Shah');

    expect((await gina.http.post('/trpc/knowledgeBase.save', { ...knowledgeBase, useKnowledgeBase: true })).status).toBe(200);
    const on = await incomingCall(server, '+15553334444', 'CA10');
    expect((await on.say('Who should I tell first?')).Gather.Say).toBe('Talk to your manager first.');
    expect(systemOf(1)).toContain(marker);
    expect(systemOf(1)).toContain('Manager: Priya Shah');
  });

  it('keeps phone turns within RATE_LIMIT_CHAT_PER_MINUTE: past it the coach says goodbye politely, per user and per unknown number', async () => {
    const limited = await startTestServer(configured({ RATE_LIMIT_CHAT_PER_MINUTE: '2' }));
    try {
      model.behave({ reply: 'One step at a time.' });
      const frank = await signUp(limited.url, 'phone-frank', 'Frank Phone');
      expect((await frank.http.post('/trpc/profile.updateProfile', { fullName: 'Frank Phone', phone: '+1 555 666 7777' })).status).toBe(200);
      // Frank's budget is the one his chats use: one chat message, then one phone turn.
      const chat = await frank.http.post('/api/chats', {});
      expect((await frank.http.post(`/api/chats/${chat.json.id}/messages`, { content: 'Hello coach' })).status).toBe(201);
      await eventually(async () => {
        const last = (await frank.http.get(`/api/chats/${chat.json.id}/messages`)).json?.at(-1);
        return last?.role === 'assistant' && last.status !== 'streaming';
      });

      const call = await incomingCall(limited, '+15556667777', 'CA6');
      expect((await call.say('How do I prioritise?')).Gather.Say).toBe('One step at a time.');
      const asked = model.requests.length;
      const refused = await call.say('And the rest?');
      expect(refused.Say).toBe(phoneTexts.tooManyTurns);
      expect(refused).toHaveProperty('Hangup');
      expect(refused).not.toHaveProperty('Gather');
      expect(model.requests.length).toBe(asked);

      // An unknown caller is counted by their number.
      const stranger = await incomingCall(limited, '+15558889999', 'CA7');
      expect((await stranger.say('Help me plan.')).Gather.Say).toBe('One step at a time.');
      expect((await stranger.say('And tomorrow?')).Gather.Say).toBe('One step at a time.');
      expect((await stranger.say('And the day after?')).Say).toBe(phoneTexts.tooManyTurns);
      const another = await incomingCall(limited, '+15551112222', 'CA8');
      expect((await another.say('Help me plan.')).Gather.Say).toBe('One step at a time.');
    } finally {
      await limited.stop();
    }
  });

  it('holds a TwiML conversation and saves it in the matching user\'s history; unknown callers get a generic coach', async () => {
    model.behave({ reply: 'Good question. Start with one clear goal.' });
    const alice = await signUp(server.url, 'phone-alice', 'Alice Phone');
    expect((await alice.http.post('/trpc/profile.updateProfile', { fullName: 'Alice Phone', phone: '+1 555 222 3333' })).status).toBe(200);
    const bob = await signUp(server.url, 'phone-bob', 'Bob Other');

    const incoming = await postSignedWebhook({
      authToken: twilio.authToken,
      signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
      targetUrl: `${server.url}/api/twilio/voice/incoming`,
      params: { CallSid: 'CA2', From: '+15552223333', To: '+15550001111', Direction: 'inbound' },
    });
    expect(incoming.contentType).toMatch(/xml/);
    const greeting = parse(incoming.text);
    expect(greeting.Gather['@input']).toBe('speech');
    expect(greeting.Gather.Say).toContain('Hello Alice');
    const action: string = greeting.Gather['@action'];
    expect(action.startsWith(`${publicUrl}/api/twilio/voice/respond`)).toBe(true);

    const follow = async (url: string, SpeechResult: string) => {
      const res = await postSignedWebhook({
        authToken: twilio.authToken,
        signedUrl: url,
        targetUrl: server.url + url.slice(publicUrl.length),
        params: { CallSid: 'CA2', From: '+15552223333', SpeechResult },
      });
      expect(res.status).toBe(200);
      return parse(res.text);
    };
    const turn1 = await follow(action, 'How do I set goals for my team?');
    expect(turn1.Gather.Say).toBe('Good question. Start with one clear goal.');
    expect(turn1.Gather['@input']).toBe('speech');
    const systemText = model.requests[0]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(systemText).toContain('Alice Phone');
    expect(systemText).toContain('2 to 3');
    const turn2 = await follow(turn1.Gather['@action'], 'Goodbye');
    expect(turn2.Say).toBe(phoneTexts.goodbye);
    expect(turn2).toHaveProperty('Hangup');

    const chats = await alice.http.get('/api/chats');
    const phoneChat = chats.json.find((c: { title: string }) => c.title.startsWith('Phone call'));
    expect(phoneChat).toBeDefined();
    const messages = await alice.http.get(`/api/chats/${phoneChat.id}/messages`);
    expect(messages.json.map((m: { content: string }) => m.content)).toEqual([
      'How do I set goals for my team?',
      'Good question. Start with one clear goal.',
      'Goodbye',
      phoneTexts.goodbye,
    ]);
    expect((await bob.http.get('/api/chats')).json.some((c: { title: string }) => c.title.startsWith('Phone call'))).toBe(false);
    // A forged chat id cannot be posted without Twilio's signature.
    const forged = await postSignedWebhook({ authToken: 'guess', signedUrl: `${publicUrl}/api/twilio/voice/respond?chat=${phoneChat.id}`, targetUrl: `${server.url}/api/twilio/voice/respond?chat=${phoneChat.id}`, params: { SpeechResult: 'hi' } });
    expect(forged.status).toBe(403);

    // An unknown caller: a generic coach, nothing about Alice, nothing saved.
    model.reset();
    model.behave({ reply: 'Happy to help.' });
    const stranger = await postSignedWebhook({
      authToken: twilio.authToken,
      signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
      targetUrl: `${server.url}/api/twilio/voice/incoming`,
      params: { CallSid: 'CA3', From: '+15559990000', Direction: 'inbound' },
    });
    const strangerGreeting = parse(stranger.text);
    expect(strangerGreeting.Gather.Say).toBe(phoneTexts.greeting(null));
    const strangerTurn = await follow(strangerGreeting.Gather['@action'], 'Help me plan my week');
    expect(strangerTurn.Gather.Say).toBe('Happy to help.');
    const strangerContext = JSON.stringify(model.requests[0]!.body.messages);
    expect(strangerContext).not.toContain('Alice');
    // Silence ends the call politely.
    const silence = await follow(strangerGreeting.Gather['@action'], '');
    expect(silence).toHaveProperty('Hangup');
  });
});
