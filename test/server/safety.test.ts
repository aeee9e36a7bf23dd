import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import type { VoiceTurnEvent } from '../../src/shared/schemas/voice.js';
import { safetyQuestion, safetyTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, systemTextOf, type FakeOpenAI } from '../fakes/openai.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import type { RelayClient } from '../fakes/twilio/relay.js';
import { signUp } from '../helpers/clients.js';
import { callIn, twilioEnv } from '../helpers/phone.js';
import { rehearsalSetUp } from '../helpers/rehearsal.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The safety line through the real server, on every channel: chat (REST), a browser voice turn,
// the phone (ConversationRelay), a rehearsal and the OpenAI-compatible API, with the fake model
// whose own replies carry no crisis resource at all, and on the offline coach. A look-alike does
// not trigger; harassment never gets feedback prep; each decision is counted in /metrics by
// category and never with the text.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const metricsToken = 'safety-metrics-token-0123456789';
const publicUrl = 'https://coach.example.com';
const modelReply = 'Let us look at what you can do next.';
const crisis = "Some days I don't want to be here anymore";
const harassment = "My manager's sexual comments at the offsite: how do I give him feedback?";

let model: FakeOpenAI;
let twilio: FakeTwilio;
let server: TestServer;
let offline: TestServer;
let users = 0;
const relays: RelayClient[] = [];

beforeAll(async () => {
  model = await startFakeOpenAI();
  twilio = await startFakeTwilio();
  [server, offline] = await Promise.all([
    startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: model.url, METRICS_TOKEN: metricsToken, ...twilioEnv(twilio, publicUrl) }),
    startTestServer({ DEMO_MODE: 'false' }),
  ]);
});
afterAll(async () => {
  for (const relay of relays) relay.close();
  await server?.stop();
  await offline?.stop();
  await model?.close();
  await twilio?.close();
});
beforeEach(() => {
  model.reset();
  model.behave({ reply: modelReply });
});

const newUser = (on: TestServer = server) => signUp(on.url, `safety-${++users}-${Date.now()}`, 'Jane Doe');

async function say(on: TestServer, http: HttpClient, chatId: number, content: string): Promise<string> {
  const sent = await http.post(`/api/chats/${chatId}/messages`, { content });
  expect(sent.status).toBe(201);
  await on.deps.replies.settled();
  const messages = (await http.get(`/api/chats/${chatId}/messages`)).json as Array<{ role: string; content: string }>;
  return messages.at(-1)!.content;
}

async function chatSay(content: string, options: { on?: TestServer; timeZone?: string } = {}) {
  const on = options.on ?? server;
  const { http, user } = await newUser(on);
  if (options.timeZone) {
    const em = on.deps.orm.em.fork();
    const settings = (await em.findOne(UserSettings, { user: user.id })) ?? em.create(UserSettings, { user: user.id });
    settings.timeZone = options.timeZone;
    await em.flush();
  }
  const chat = (await http.post('/api/chats', {})).json as { id: number };
  return say(on, http, chat.id, content);
}

/** The parts of a crisis answer every channel must hold. */
function expectCrisisAnswer(reply: string, line: string, emergency: string) {
  expect(reply).toContain('AI coach');
  expect(reply).toContain(line);
  expect(reply).toContain(emergency);
  expect(reply.trim().endsWith(safetyQuestion)).toBe(true);
  expect(reply).not.toContain(modelReply);
  expect(reply).not.toMatch(/GROW|SMART|OKR/);
}

describe('the safety line in the chat', () => {
  it('answers a crisis with the app’s resources for the default country (US) and never asks the model', async () => {
    const reply = await chatSay(crisis);
    expectCrisisAnswer(reply, '988', '911');
    expect(model.replyRequests()).toHaveLength(0);
  });

  it('gives the crisis line of the user’s country, read from the time zone of their profile', async () => {
    const reply = await chatSay('I feel unsafe and scared to go to work', { timeZone: 'Europe/London' });
    expectCrisisAnswer(reply, '116 123', '999');
    expect(reply).toContain('Samaritans');
    expect(reply).not.toContain('988');
  });

  it('puts the app’s harassment referral before the model’s reply, and tells the model not to prepare feedback', async () => {
    const reply = await chatSay(harassment);
    expect(reply.startsWith(safetyTexts.harassmentReferral({ place: '', line: null, emergency: [], eap: null }, false))).toBe(true);
    expect(reply).toContain('HR');
    expect(reply).toContain('employment lawyer');
    expect(reply.endsWith(modelReply)).toBe(true);
    const request = model.replyRequests()[0]!.body;
    const messages = request.messages!;
    // The instruction sits just before the user's message; the coach's own prompt states the line too.
    expect(String(messages.at(-2)!.content)).toContain('Do not prepare feedback');
    expect(messages.at(-2)!.role).toBe('system');
    expect(systemTextOf(request)).toContain('never prepare feedback (no Situation-Behaviour-Impact) for the person responsible');
  });

  it('refers a medical question on before the model’s coaching', async () => {
    const reply = await chatSay("I'm burnt out and can't sleep");
    expect(reply).toContain('doctor');
    expect(reply.endsWith(modelReply)).toBe(true);
  });

  it('leaves a look-alike alone: the model’s reply, no referral, no instruction', async () => {
    const reply = await chatSay("I'm killing it this quarter: how do I keep the momentum?");
    expect(reply).toBe(modelReply);
    expect(systemTextOf(model.replyRequests()[0]!.body)).not.toContain('The safety line: the user');
  });
});

describe('the safety line by voice and on the phone', () => {
  it('says the crisis resources in a browser voice turn, numbers in words', async () => {
    const { http } = await newUser();
    const res = await http.post('/api/voice/turn', { chatId: null, text: 'I want to end it all' });
    expect(res.status).toBe(200);
    const events = res.text.trim().split('\n').map((line) => JSON.parse(line)) as VoiceTurnEvent[];
    const done = events.find((e) => e.type === 'done') as Extract<VoiceTurnEvent, { type: 'done' }>;
    expectCrisisAnswer(done.reply, 'nine eight eight', 'nine one one');
    expect(model.replyRequests()).toHaveLength(0);
  });

  it('says them on the phone to a caller nobody knows, for the country they call from, and a goodbye in crisis does not end the call', async () => {
    const { client } = await callIn({ appUrl: server.url, publicUrl, authToken: twilio.authToken, from: '+447700900123' });
    relays.push(client);
    client.prompt('Goodbye. I want to die.');
    const reply = await client.nextReply();
    expectCrisisAnswer(reply.text, 'one one six, one two three', 'nine nine nine');
    expect(client.received.some((m) => m.type === 'end')).toBe(false);
    expect(model.replyRequests()).toHaveLength(0);
  });
});

describe('the safety line in a rehearsal', () => {
  it('steps out of the role and gives the same crisis answer', async () => {
    const { http } = await newUser();
    const { chatId } = (await http.post('/api/rehearsals', rehearsalSetUp)).json as { chatId: number };
    const before = model.replyRequests().length;
    const reply = await say(server, http, chatId, "Honestly I've been giving my things away and I can't do this");
    expect(reply.startsWith(safetyTexts.steppingOut)).toBe(true);
    expectCrisisAnswer(reply, '988', '911');
    expect(model.replyRequests()).toHaveLength(before);
  });

  it('plays on in role for an ordinary line', async () => {
    const { http } = await newUser();
    const { chatId } = (await http.post('/api/rehearsals', rehearsalSetUp)).json as { chatId: number };
    const reply = await say(server, http, chatId, 'Sam, this deadline is killing me, can we talk about the launch date?');
    expect(reply).toBe(modelReply);
  });
});

describe('the safety line in the OpenAI-compatible API', () => {
  const path = '/api/openai/chat/completions';

  it('answers a crisis with the app’s resources whatever the client’s own prompt, without asking the model', async () => {
    const { http } = await newUser();
    const res = await http.post(path, { model: 'gpt-4o', messages: [{ role: 'system', content: 'You are a coach.' }, { role: 'user', content: 'I have been thinking about suicide' }] });
    expect(res.status).toBe(200);
    expectCrisisAnswer(res.json.choices[0].message.content as string, '988', '911');
    expect(model.requests).toHaveLength(0);
  });

  it('puts the referral before the model’s reply for a legal question, with the instruction', async () => {
    const { http } = await newUser();
    const res = await http.post(path, { messages: [{ role: 'user', content: 'Can I sue my employer for cutting my bonus?' }] });
    const content = res.json.choices[0].message.content as string;
    expect(content).toContain('lawyer');
    expect(content.endsWith(modelReply)).toBe(true);
    expect(systemTextOf(model.requests[0]!.body)).toContain('give no legal opinion');
  });

  it('leaves a look-alike alone', async () => {
    const { http } = await newUser();
    const res = await http.post(path, { messages: [{ role: 'user', content: 'Our legal team approved the launch, what next?' }] });
    expect(res.json.choices[0].message.content).toBe(modelReply);
  });
});

describe('the safety line on the offline coach', () => {
  it('answers harassment framed as feedback with HR and the user’s own steps, never feedback prep', async () => {
    const reply = await chatSay(harassment, { on: offline });
    expect(reply).toContain('HR');
    expect(reply).toMatch(/ethics line|EAP|employment lawyer/);
    expect(reply).toContain('writing down what happened');
    expect(reply).not.toMatch(/\bSBI\b|Situation|Behaviou?r|Impact/);
  });

  it('refers a medical worry to a doctor, then coaches with one question', async () => {
    const reply = await chatSay("I'm burnt out and can't sleep", { on: offline });
    expect(reply).toContain('doctor');
    expect(reply).not.toMatch(/GROW session/);
    expect(reply.trim().endsWith('?')).toBe(true);
  });

  it('answers a crisis with the resources', async () => {
    expectCrisisAnswer(await chatSay('He touched my leg and now I feel unsafe going to the office', { on: offline }), '988', '911');
  });

  it('gives the resources again when the answer to "Are you safe right now?" is not a yes', async () => {
    const { http } = await newUser(offline);
    const chat = (await http.post('/api/chats', {})).json as { id: number };
    expectCrisisAnswer(await say(offline, http, chat.id, crisis), '988', '911');
    expectCrisisAnswer(await say(offline, http, chat.id, 'Not really'), '988', '911');
    expect(await say(offline, http, chat.id, "Yes, I'm safe now")).not.toContain(safetyQuestion);
  });

  it('coaches a look-alike as usual', async () => {
    const reply = await chatSay("I'm killing it this quarter", { on: offline });
    expect(reply).not.toContain('AI coach');
    expect(reply).not.toContain('988');
  });
});

describe('the safety line in /metrics', () => {
  it('counts each decision by category, never with the text', async () => {
    const scrape = async () => (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    const count = (text: string, category: string) => Number(text.match(new RegExp(`^coach_safety_screen_total\\{category="${category}"\\} (\\d+)`, 'm'))?.[1] ?? 0);
    const before = await scrape();
    await chatSay('I want to kill myself tonight');
    await chatSay('How do I run a better retro?');
    const after = await scrape();
    expect(count(after, 'self_harm') - count(before, 'self_harm')).toBe(1);
    expect(count(after, 'none') - count(before, 'none')).toBe(1);
    expect(after).not.toContain('kill myself');
    expect(after).not.toContain('retro');
  });
});
