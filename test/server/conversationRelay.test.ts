import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Message } from '../../src/server/db/entities/Message.js';
import { PhoneCall } from '../../src/server/db/entities/PhoneCall.js';
import { User } from '../../src/server/db/entities/User.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { deprovisionUser } from '../../src/server/features/organisations/deprovision.js';
import { hashPhonePin } from '../../src/server/features/phone/phoneTrust.js';
import { relayUrlOf } from '../../src/server/features/telephony/relayGrant.js';
import { phoneTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { postSignedWebhook, startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import { connectRelay, newCallSid, type RelayClient } from '../fakes/twilio/relay.js';
import { twilioEnv } from '../helpers/phone.js';

// The phone through Twilio ConversationRelay and who a caller is: the
// incoming webhook's TwiML, then a fake Twilio client on the relay WebSocket.
const publicUrl = 'https://coach.example.com';
const relayUrl = 'wss://coach.example.com/api/twilio/relay';
const attested = 'TN-Validation-Passed-A';

// PIN checks hash like passwords: slow by design, slower still on a loaded machine.
describe('ConversationRelay', { timeout: 60_000 }, () => {
  let twilio: FakeTwilio;
  let model: FakeOpenAI;
  let server: TestServer;
  const open: RelayClient[] = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    model = await startFakeOpenAI();
    server = await startTestServer({
      DEMO_MODE: 'false',
      OPENAI_API_KEY: 'sk-test-key-123456',
      OPENAI_BASE_URL: model.url,
      ...twilioEnv(twilio, publicUrl),
      TWILIO_RELAY_VOICE: 'en-US-Journey-O',
    });
  }, 180_000);
  afterAll(async () => {
    for (const client of open) client.close();
    await server?.stop();
    await twilio?.close();
    await model?.close();
  });
  beforeEach(() => model.reset());

  const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml).Response;
  const relayTarget = () => `${server.url.replace('http', 'ws')}/api/twilio/relay`;

  async function answer(params: Record<string, string>) {
    const res = await postSignedWebhook({ authToken: twilio.authToken, signedUrl: `${publicUrl}/api/twilio/voice/incoming`, targetUrl: `${server.url}/api/twilio/voice/incoming`, params });
    expect(res.status).toBe(200);
    return parse(res.text);
  }

  /** An incoming call answered by the webhook, then connected over the relay as Twilio would. */
  async function call(from: string, options: { stir?: string } = {}) {
    const callSid = newCallSid();
    const twiml = await answer({ CallSid: callSid, From: from, To: '+15550001111', Direction: 'inbound', ...(options.stir ? { StirVerstat: options.stir } : {}) });
    const relay = twiml.Connect.ConversationRelay;
    const client = await connectRelay({ targetUrl: relayTarget(), signedUrl: relay['@url'], authToken: twilio.authToken });
    open.push(client);
    client.setup({ callSid, callId: relay.Parameter['@value'], from });
    return { client, callSid, greeting: relay['@welcomeGreeting'] as string };
  }

  async function userWithPhone(username: string, fullName: string, phone: string, options: { verified: boolean; pin?: string }) {
    const account = await signUp(server.url, username, fullName);
    const em = server.deps.orm.em.fork();
    const settings = (await em.findOne(UserSettings, { user: account.user.id })) ?? em.create(UserSettings, { user: account.user.id });
    settings.phone = phone;
    settings.phoneVerifiedAt = options.verified ? new Date() : null;
    settings.phonePinHash = options.pin ? await hashPhonePin(options.pin) : null;
    await em.flush();
    return account;
  }

  const phoneChatOf = async (http: Awaited<ReturnType<typeof signUp>>['http']) => {
    const chats = (await http.get('/api/chats')).json as Array<{ id: number; title: string }>;
    const chat = chats.find((c) => c.title.startsWith('Phone call'));
    return chat ? ((await http.get(`/api/chats/${chat.id}/messages`)).json as Array<{ role: string; content: string; status: string }>) : null;
  };

  it('answers with <Connect><ConversationRelay> to the wss:// relay URL, voice, language, greeting and a call parameter', async () => {
    const twiml = await answer({ CallSid: newCallSid(), From: '+15559990001', To: '+15550001111', Direction: 'inbound' });
    const relay = twiml.Connect.ConversationRelay;
    // Bound to the call and short-lived (test/server/relayHandshake.test.ts).
    expect(relay['@url']).toMatch(new RegExp(`^${relayUrl}\\?call=${relay.Parameter['@value']}&exp=\\d+&grant=[0-9a-f]{64}$`));
    expect(relay['@voice']).toBe('en-US-Journey-O');
    expect(relay['@language']).toBe('en-US');
    expect(relay['@dtmfDetection']).toBe('true');
    expect(relay['@welcomeGreeting']).toBe(phoneTexts.welcomePin);
    expect(relay.Parameter['@name']).toBe('callId');
    expect(relayUrlOf('http://127.0.0.1:3000')).toBe('ws://127.0.0.1:3000/api/twilio/relay');
  });

  it('refuses an unsigned, mis-signed or other-URL handshake before any message, and accepts a signed one', async () => {
    const signedUrl = (await answer({ CallSid: newCallSid(), From: '+15559990003', To: '+15550001111', Direction: 'inbound' })).Connect.ConversationRelay['@url'] as string;
    const query = new URL(signedUrl).search;
    for (const attempt of [
      { signature: null },
      { authToken: 'not-the-token' },
      { signedUrl: `wss://evil.example.com/api/twilio/relay${query}` },
      { signedUrl: `${signedUrl}&x=1` },
      // The URL without the call's grant: what every call's handshake was signed over before.
      { signedUrl: relayUrl, targetUrl: relayTarget() },
    ]) {
      const refused = connectRelay({ targetUrl: `${relayTarget()}${query}`, signedUrl, authToken: twilio.authToken, ...attempt });
      await expect(refused).rejects.toMatchObject({ status: 403 });
    }
    const client = await connectRelay({ targetUrl: relayTarget(), signedUrl, authToken: twilio.authToken });
    open.push(client);
    // Signed, but a call our webhook never answered: closed without a word.
    client.setup({ callSid: newCallSid(), callId: '1' });
    expect((await client.closed).code).toBe(1008);
    expect(client.received).toEqual([]);
  });

  it('streams the reply as text tokens before the model has finished, then last: true, and saves the turns', async () => {
    model.behave({ tokens: ['Start ', 'with ', 'one ', 'clear ', 'goal. ', 'Then ', 'ask.'], tokenDelayMs: 60 });
    const alice = await userWithPhone('relay-alice', 'Alice Relay', '+15552223333', { verified: true });
    const { client, greeting } = await call('+15552223333', { stir: attested });
    expect(greeting).toContain('Hello Alice');

    client.prompt('How do I set goals for my team?');
    const first = (await client.waitForTokens(1))[0]!;
    expect(first).toMatchObject({ type: 'text', token: 'Start ', last: false });
    // The first token reached the caller while the model was still writing.
    const lastWrite = await eventually(() => model.tokenWrites.find((w) => w.index === 6));
    expect(first.at < lastWrite.writtenAtNs).toBe(true);
    const reply = await client.nextReply();
    expect(reply.text).toBe('Start with one clear goal. Then ask.');
    expect(reply.tokens.at(-1)).toMatchObject({ token: '', last: true });
    const systemText = model.requests[0]!.body.messages!.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(systemText).toContain('Alice Relay');
    expect(systemText).toContain('2 to 3');

    model.behave({ reply: 'Write it down today.' });
    client.prompt('And then?');
    expect((await client.nextReply()).text).toBe('Write it down today.');
    // The second turn hears the first.
    expect(JSON.stringify(model.requests[1]!.body.messages)).toContain('How do I set goals for my team?');
    expect((await phoneChatOf(alice.http))?.map((m) => m.content)).toEqual([
      'How do I set goals for my team?',
      'Start with one clear goal. Then ask.',
      'And then?',
      'Write it down today.',
    ]);
  });

  it('aborts the model stream at once on interrupt and stores what the caller heard', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i} `);
    model.behave({ tokens: words, tokenDelayMs: 80 });
    const bea = await userWithPhone('relay-bea', 'Bea Relay', '+15552224444', { verified: true });
    const { client } = await call('+15552224444', { stir: attested });
    client.prompt('Tell me everything.');
    await client.waitForTokens(3);
    client.send({ type: 'interrupt', utteranceUntilInterrupt: 'word0 word1', durationUntilInterruptMs: 900 });
    // The fake saw the request cancelled long before its 40 tokens.
    await eventually(() => model.requests[0]?.disconnected);
    expect(model.tokenWrites.length).toBeLessThan(10);
    const messages = await eventually(async () => {
      const m = await phoneChatOf(bea.http);
      return m && m.length === 2 ? m : undefined;
    });
    expect(messages[1]).toMatchObject({ role: 'assistant', content: 'word0 word1', status: 'stopped' });

    // The call goes on.
    model.behave({ reply: 'Sure, briefly then.' });
    client.prompt('Just the short version.');
    const next = await client.nextReply();
    expect(next.text).toContain('Sure, briefly then.');
  });

  it('stores what was heard when the caller interrupts the speech of a reply the model had finished', async () => {
    model.behave({ reply: 'First do this. Then do that.' });
    const cleo = await userWithPhone('relay-cleo', 'Cleo Relay', '+15552225555', { verified: true });
    const { client } = await call('+15552225555', { stir: attested });
    client.prompt('What first?');
    await client.nextReply();
    await eventually(async () => (await phoneChatOf(cleo.http))?.length === 2);
    client.send({ type: 'interrupt', utteranceUntilInterrupt: 'First do this.', durationUntilInterruptMs: 700 });
    await eventually(async () => (await phoneChatOf(cleo.http))?.[1]?.content === 'First do this.');
    // Text that is not what the coach said is never stored. The next turn, sent after it on the
    // same socket, is stored only after that interrupt was handled: wait for it, then look.
    client.send({ type: 'interrupt', utteranceUntilInterrupt: 'Something else entirely.' });
    model.behave({ reply: 'Next step.' });
    client.prompt('And then?');
    expect((await client.nextReply()).text).toBe('Next step.');
    await eventually(async () => (await phoneChatOf(cleo.http))?.length === 4);
    expect((await phoneChatOf(cleo.http))?.map((m) => m.content)).toEqual(['What first?', 'First do this.', 'And then?', 'Next step.']);
  });

  it('speaks a short apology when the model fails, and keeps the call', async () => {
    model.behave({ status: 500 });
    const { client } = await call('+15559990002');
    client.prompt('Help me plan.');
    expect((await client.nextReply()).text).toBe(phoneTexts.apology);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    model.behave({ reply: 'Happy to help.' });
    client.prompt('Help me plan.');
    expect((await client.nextReply()).text).toBe('Happy to help.');
  });

  it('does not trust a verified number without full attestation, and takes the phone PIN over DTMF', async () => {
    model.behave({ reply: 'Let us begin.' });
    const dana = await userWithPhone('relay-dana', 'Dana Relay', '+15552226666', { verified: true, pin: '4321' });
    const { client, greeting, callSid } = await call('+15552226666', { stir: 'TN-Validation-Passed-B' });
    expect(greeting).toBe(phoneTexts.welcomePin);
    expect(greeting).not.toContain('Dana');

    // Before the PIN: the generic coach, nothing of Dana.
    client.prompt('Who am I?');
    await client.nextReply();
    expect(JSON.stringify(model.requests[0]!.body.messages)).not.toContain('Dana');
    expect(await phoneChatOf(dana.http)).toBeNull();

    for (const digit of '1111') client.send({ type: 'dtmf', digit });
    expect((await client.nextReply()).text).toBe(phoneTexts.pinWrong);
    for (const digit of '4321') client.send({ type: 'dtmf', digit });
    expect((await client.nextReply()).text).toBe(phoneTexts.pinAccepted('Dana'));
    client.prompt('Now who am I?');
    await client.nextReply();
    expect(JSON.stringify(model.requests[1]!.body.messages)).toContain('Dana Relay');
    expect((await phoneChatOf(dana.http))?.map((m) => m.content)).toEqual(['Now who am I?', 'Let us begin.']);
    const state = await server.deps.orm.em.fork().findOneOrFail(PhoneCall, { callSid });
    expect(state.owner?.id).toBe(dana.user.id);
  });

  it('stops asking for the PIN after three wrong tries on a call', async () => {
    model.behave({ reply: 'Hello, caller.' });
    const ezra = await userWithPhone('relay-ezra', 'Ezra Relay', '+15552227777', { verified: true, pin: '2468' });
    const { client } = await call('+15552227777');
    for (const pin of ['0000', '1111']) {
      for (const digit of pin) client.send({ type: 'dtmf', digit });
      expect((await client.nextReply()).text).toBe(phoneTexts.pinWrong);
    }
    for (const digit of '2222') client.send({ type: 'dtmf', digit });
    expect((await client.nextReply()).text).toBe(phoneTexts.pinLocked);
    // The right PIN now changes nothing. Digits and turns run one after another on the call, so
    // the reply to a turn sent after the digits comes after whatever they would have said.
    for (const digit of '2468') client.send({ type: 'dtmf', digit });
    client.prompt('Who am I?');
    expect((await client.nextReply()).text).toBe('Hello, caller.');
    expect(client.received.filter((m) => m.type === 'text' && (m as { last: boolean }).last)).toHaveLength(4);
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).not.toContain('Ezra');
    expect(await phoneChatOf(ezra.http)).toBeNull();
  });

  it('trusts neither an attested unverified number nor an unattested one without a PIN', async () => {
    model.behave({ reply: 'Hello there.' });
    const finn = await userWithPhone('relay-finn', 'Finn Relay', '+15552228888', { verified: false, pin: '1357' });
    const unverified = await call('+15552228888', { stir: attested });
    expect(unverified.greeting).toBe(phoneTexts.welcomePin);
    unverified.client.prompt('Hi');
    await unverified.client.nextReply();
    expect(JSON.stringify(model.requests[0]!.body.messages)).not.toContain('Finn');
    // A verified number is no PIN prompt for a PIN that does not exist.
    const gus = await userWithPhone('relay-gus', 'Gus Relay', '+15552229999', { verified: true });
    const unattested = await call('+15552229999');
    expect(unattested.greeting).toBe(phoneTexts.welcomePin);
    // Its digits are answered as a wrong PIN: nothing tells the caller the number has no PIN.
    for (const digit of '0000') unattested.client.send({ type: 'dtmf', digit });
    expect((await unattested.client.nextReply()).text).toBe(phoneTexts.pinWrong);
    unattested.client.prompt('Hi');
    await unattested.client.nextReply();
    expect(JSON.stringify(model.requests[1]!.body.messages)).not.toContain('Gus');
    expect(await phoneChatOf(finn.http)).toBeNull();
    expect(await phoneChatOf(gus.http)).toBeNull();
  });

  it('binds the call to its state: a replayed webhook changes nothing and a replayed handshake gets no second relay', async () => {
    const hana = await userWithPhone('relay-hana', 'Hana Relay', '+15552221111', { verified: true });
    const callSid = newCallSid();
    const params = { CallSid: callSid, From: '+15552221111', To: '+15550001111', Direction: 'inbound', StirVerstat: attested };
    const first = await answer(params);
    // Replayed, even after the user's number lost its attestation, and seconds later: the same
    // call, the same answer (its relay URL's window runs from the first webhook, not the replay).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1_500 });
    const replayed = await answer({ ...params }).finally(() => vi.useRealTimers());
    expect(replayed).toEqual(first);
    const em = server.deps.orm.em.fork();
    expect(await em.count(PhoneCall, { callSid })).toBe(1);

    model.behave({ reply: 'Noted.' });
    const relay = first.Connect.ConversationRelay;
    const client = await connectRelay({ targetUrl: relayTarget(), signedUrl: relay['@url'], authToken: twilio.authToken });
    open.push(client);
    client.setup({ callSid, callId: relay.Parameter['@value'] });
    client.prompt('One thing.');
    await client.nextReply();
    // The same signed handshake and setup again: refused, nothing said, nothing saved.
    const again = await connectRelay({ targetUrl: relayTarget(), signedUrl: relay['@url'], authToken: twilio.authToken });
    again.setup({ callSid, callId: relay.Parameter['@value'] });
    again.prompt('One thing.');
    expect((await again.closed).code).toBe(1008);
    expect(again.received).toEqual([]);
    expect(await em.fork().count(Message, { chat: { owner: hana.user.id } })).toBe(2);
  });

  it('ends a call in progress at the next turn once the organisation deprovisions its member', async () => {
    model.behave({ reply: 'What would a good week look like?' });
    const member = await userWithPhone('relay-removed', 'Rory Removed', '+15553107788', { verified: true });
    const { client } = await call('+15553107788', { stir: attested });
    client.prompt('Help me plan my week.');
    expect((await client.nextReply()).text).toBe('What would a good week look like?');
    const em = server.deps.orm.em.fork();
    await deprovisionUser(server.deps, em, await em.findOneOrFail(User, member.user.id));
    const asked = model.requests.length;
    client.prompt('And what about Friday?');
    expect((await client.nextReply()).text).toBe(phoneTexts.accountEnded);
    await eventually(() => client.received.some((m) => m.type === 'end'));
    expect(model.requests.length).toBe(asked);
  });

  it('keeps phone turns within the chat budget: past it the coach says goodbye and ends the call', async () => {
    const limited = await startTestServer({
      DEMO_MODE: 'false',
      OPENAI_API_KEY: 'sk-test-key-123456',
      OPENAI_BASE_URL: model.url,
      ...twilioEnv(twilio, publicUrl),
      RATE_LIMIT_CHAT_PER_MINUTE: '1',
    });
    try {
      model.behave({ reply: 'One step at a time.' });
      const callSid = newCallSid();
      const res = await postSignedWebhook({ authToken: twilio.authToken, signedUrl: `${publicUrl}/api/twilio/voice/incoming`, targetUrl: `${limited.url}/api/twilio/voice/incoming`, params: { CallSid: callSid, From: '+15558889999', Direction: 'inbound' } });
      const relay = parse(res.text).Connect.ConversationRelay;
      const client = await connectRelay({ targetUrl: `${limited.url.replace('http', 'ws')}/api/twilio/relay`, signedUrl: relay['@url'], authToken: twilio.authToken });
      open.push(client);
      client.setup({ callSid, callId: relay.Parameter['@value'], from: '+15558889999' });
      client.prompt('Help me plan.');
      expect((await client.nextReply()).text).toBe('One step at a time.');
      const asked = model.requests.length;
      client.prompt('And tomorrow?');
      expect((await client.nextReply()).text).toBe(phoneTexts.tooManyTurns);
      await eventually(() => client.received.some((m) => m.type === 'end'));
      expect(model.requests.length).toBe(asked);
    } finally {
      await limited.stop();
    }
  });
});
