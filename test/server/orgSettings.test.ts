import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Goal } from '../../src/server/db/entities/Goal.js';
import { PhoneCall } from '../../src/server/db/entities/PhoneCall.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { hashPhonePin } from '../../src/server/features/phone/phoneTrust.js';
import { RelayPin } from '../../src/server/features/telephony/relayPin.js';
import { callGoalReminders } from '../../src/server/features/goals/goalCheckInCall.js';
import { claimDueReminders } from '../../src/server/features/goals/goalReminders.js';
import { loadConfig } from '../../src/server/config.js';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { organisationTexts, phoneTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { startFakeOpenAI, type FakeChatRequest, type FakeOpenAI, type ReceivedRequest } from '../fakes/openai.js';
import { postSignedWebhook, startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import { newCallSid } from '../fakes/twilio/relay.js';
import { eventually, signUp } from '../helpers/clients.js';
import { twilioEnv } from '../helpers/phone.js';
import { rehearsalSetUp } from '../helpers/rehearsal.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The organisation's settings (issue 51, item 4) through the real server: the channels nudges may
// use (a member's nudge is never delivered on one the organisation turned off, whatever their own
// settings say), whether phone calls are allowed (no call placed; an inbound call from a verified
// number told so and hung up, through Twilio's signed webhook and the fake Twilio), and the model
// region (the coach's request, memory extraction, the rehearsal judge, the debrief reader and speech
// go to that region's fake OpenAI server, never to OPENAI_BASE_URL's; a region not configured is
// refused with 400, and one removed from OPENAI_REGIONS since sends nothing anywhere).

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const publicUrl = 'https://coach.example.com';
const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml).Response;
type Run = { id: number; status: string; channels: string[]; reason: string | null };

describe('the settings, nudge channels and phone calls', () => {
  let twilio: FakeTwilio;
  let server: TestServer;
  let boss: HttpClient;
  let phones = 0;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    server = await startTestServer({ DEMO_MODE: 'false', ORG_ADMINS: 'boss', ...twilioEnv(twilio, publicUrl) });
    ({ http: boss } = await signUp(server.url, 'boss', 'The Boss'));
  });
  afterAll(async () => {
    await server?.stop();
    await twilio?.close();
  });

  const settle = (body: Record<string, unknown>) => boss.request('PATCH', '/api/admin/organisation', body);
  async function memberWithPhone(name: string) {
    const account = await signUp(server.url, name, 'Jane Doe');
    const phone = `+1555400${String(++phones).padStart(4, '0')}`;
    const em = server.deps.orm.em.fork();
    const settings = (await em.findOne(UserSettings, { user: account.user.id })) ?? em.create(UserSettings, { user: account.user.id });
    settings.phone = phone;
    settings.phoneVerifiedAt = new Date();
    await em.flush();
    return { ...account, phone };
  }
  async function runNow(http: HttpClient): Promise<Run> {
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(run.status).toBe(202);
    return eventually(async () => ((await http.get('/api/nudges/runs')).json.runs as Run[]).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
  }

  it('answers the settings with their defaults, keeps the existing fields, and has no model region without OPENAI_REGIONS', async () => {
    const res = await boss.get('/api/admin/organisation');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: 1, name: 'Organisation', seats: null, seatsInUse: 1, retention: 'keep', nudgeChannels: ['app', 'email', 'push', 'call'], phoneCalls: true });
    const changed = await settle({ name: 'Contoso', nudgeChannels: ['call', 'email'], phoneCalls: false });
    expect(changed.status, changed.text).toBe(200);
    // The app is always among them: a nudge is written in the app.
    expect(changed.json).toMatchObject({ name: 'Contoso', nudgeChannels: ['app', 'email', 'call'], phoneCalls: false, retention: 'keep' });
    expect((await boss.get('/trpc/admin.organisation')).json.result.data).toMatchObject({ nudgeChannels: ['app', 'email', 'call'], phoneCalls: false });
    expect((await settle({ nudgeChannels: ['app', 'email', 'push', 'call'], phoneCalls: true })).status).toBe(200);
  });

  it('refuses a channel, a phoneCalls or a model region it does not know with 400 and a clear message', async () => {
    const channel = await settle({ nudgeChannels: ['pigeon'] });
    expect(channel.status).toBe(400);
    expect(channel.json.message).toContain(organisationTexts.unknownNudgeChannel);
    expect((await settle({ nudgeChannels: 'email' })).status).toBe(400);
    const calls = await settle({ phoneCalls: 'no' });
    expect(calls.status).toBe(400);
    expect(calls.json.message).toContain(organisationTexts.phoneCallsNotBoolean);
    const region = await settle({ modelRegion: 'eu' });
    expect(region.status).toBe(400);
    expect(region.json.message).toBe(organisationTexts.modelRegionNotConfigured('eu', []));
    // null (the default) is always allowed.
    expect((await settle({ modelRegion: null })).status).toBe(200);
    expect((await boss.get('/api/admin/organisation')).json).toMatchObject({ nudgeChannels: ['app', 'email', 'push', 'call'], phoneCalls: true });
  });

  it('never delivers a nudge on a channel the organisation turned off, whatever the member says, and tells the member', async () => {
    const { http, phone } = await memberWithPhone('nudged_member');
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: false, push: false, call: true } })).status).toBe(200);
    const first = await runNow(http);
    expect(first).toMatchObject({ status: 'sent', channels: ['app', 'call'] });
    expect(twilio.calls.at(-1)!.to).toBe(phone);

    expect((await settle({ nudgeChannels: ['email', 'push'] })).status).toBe(200);
    try {
      const view = (await http.get('/api/nudges/settings')).json;
      // The member's own choice is kept; the organisation's turns it off.
      expect(view.channels).toEqual({ email: false, push: false, call: true });
      expect(view.turnedOffByOrganisation).toEqual(['call']);
      const calls = twilio.calls.length;
      const second = await runNow(http);
      expect(second).toMatchObject({ status: 'sent', channels: ['app'], reason: null });
      expect(twilio.calls.length).toBe(calls);
    } finally {
      expect((await settle({ nudgeChannels: ['app', 'email', 'push', 'call'] })).status).toBe(200);
    }
    expect((await http.get('/api/nudges/settings')).json.turnedOffByOrganisation).toEqual([]);
  });

  it('with phone calls off: no call placed (asked for, a nudge, a goal check-in), an inbound call told and hung up, and the app says so', async () => {
    const { http, phone, user } = await memberWithPhone('caller_member');
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: false, push: false, call: true } })).status).toBe(200);
    const goal = await http.post('/api/goals', { title: 'Weekly one-to-ones', framework: 'SMART', dueDate: '2027-01-31', keyResults: [{ title: 'Meetings held', start: 0, target: 10 }], cadence: 'weekly_call' });
    expect(goal.status, goal.text).toBe(201);

    expect((await settle({ phoneCalls: false })).status).toBe(200);
    try {
      expect((await http.get('/trpc/twilio.status')).json.result.data).toEqual({ configured: true, verifiedPhone: true, turnedOffByOrganisation: true });
      expect((await http.get('/api/nudges/settings')).json.turnedOffByOrganisation).toEqual(['call']);
      const calls = twilio.calls.length;

      // Receive a call: refused with the reason.
      const asked = await http.post('/api/twilio/voice/call', { phoneNumber: phone });
      expect(asked.status).toBe(403);
      expect(asked.json.message).toBe(organisationTexts.member.callsTurnedOff);

      // A nudge with the call channel on: in the app only.
      expect(await runNow(http)).toMatchObject({ status: 'sent', channels: ['app'] });

      // A goal's weekly check-in call: not placed.
      const em = server.deps.orm.em.fork();
      await em.getConnection().execute(`update "goal" set "next_reminder_at" = now() - interval '1 hour' where "owner_id" = ?`, [user.id]);
      const claimed = (await claimDueReminders(server.deps.orm, new Date())).filter((r) => r.ownerId === user.id);
      expect(claimed.length).toBeGreaterThan(0);
      expect(await callGoalReminders(server.deps, claimed)).toBe(0);
      expect(twilio.calls.length).toBe(calls);

      // The member calls in from their verified number (fully attested): a sentence, then the call ends.
      const incoming = await postSignedWebhook({
        authToken: twilio.authToken,
        signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
        targetUrl: `${server.url}/api/twilio/voice/incoming`,
        params: { CallSid: newCallSid(), From: phone, To: '+15550001111', Direction: 'inbound', StirVerstat: 'TN-Validation-Passed-A' },
      });
      expect(incoming.status).toBe(200);
      const twiml = parse(incoming.text);
      expect(twiml.Say).toBe(organisationTexts.member.callsTurnedOffSpoken);
      expect(twiml).toHaveProperty('Hangup');
      expect(twiml.Connect).toBeUndefined();
      // Not attested: greeted as every unknown caller (nothing tells the number is a member's);
      // the member's right PIN then tells them calls are off and ends the call.
      const pinSettings = await em.findOneOrFail(UserSettings, { user: user.id });
      pinSettings.phonePinHash = await hashPhonePin('2580');
      await em.flush();
      const callSid = newCallSid();
      const unattested = await postSignedWebhook({
        authToken: twilio.authToken,
        signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
        targetUrl: `${server.url}/api/twilio/voice/incoming`,
        params: { CallSid: callSid, From: phone, To: '+15550001111', Direction: 'inbound' },
      });
      expect(parse(unattested.text).Connect.ConversationRelay['@welcomeGreeting']).toBe(phoneTexts.welcomePin);
      const row = await em.fork().findOneOrFail(PhoneCall, { callSid });
      expect(row.pinUser?.id).toBe(user.id);
      const pin = new RelayPin(server.deps, async (fork) => ({ call: await fork.findOneOrFail(PhoneCall, row.id), owner: null }));
      const answers: Array<string | null> = [];
      for (const key of '2580') answers.push(await pin.keyIn(key));
      expect(answers.at(-1)).toBe(organisationTexts.member.callsTurnedOffSpoken);
      expect(pin.callEnds).toBe(true);
      const after = await em.fork().findOneOrFail(PhoneCall, { callSid });
      expect(after.owner).toBeNull();
      expect(after.pinUser).toBeNull();
    } finally {
      expect((await settle({ phoneCalls: true })).status).toBe(200);
    }
    // Calls on again: the same number is answered by the coach.
    const answered = await postSignedWebhook({
      authToken: twilio.authToken,
      signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
      targetUrl: `${server.url}/api/twilio/voice/incoming`,
      params: { CallSid: newCallSid(), From: phone, To: '+15550001111', Direction: 'inbound', StirVerstat: 'TN-Validation-Passed-A' },
    });
    expect(parse(answered.text).Connect.ConversationRelay).toBeDefined();
    // And the goal's check-in call is placed again.
    expect(await server.deps.orm.em.fork().count(Goal, { owner: user.id })).toBe(1);
    await server.deps.orm.em.fork().getConnection().execute(`update "goal" set "next_reminder_at" = now() - interval '1 hour' where "owner_id" = ?`, [user.id]);
    const due = (await claimDueReminders(server.deps.orm, new Date())).filter((r) => r.ownerId === user.id);
    expect(await callGoalReminders(server.deps, due)).toBe(1);
  });
});

describe('OPENAI_REGIONS', () => {
  it('reads name=URL pairs, and refuses a start with one it cannot read', () => {
    const env = { SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig({ ...env, OPENAI_REGIONS: 'eu=https://eu.example/v1, us-east=http://10.0.0.5:8000/v1' }).openai.regions).toEqual([
      { name: 'eu', baseUrl: 'https://eu.example/v1' },
      { name: 'us-east', baseUrl: 'http://10.0.0.5:8000/v1' },
    ]);
    expect(loadConfig({ ...env, OPENAI_REGIONS: '' }).openai.regions).toEqual([]);
    expect(loadConfig(env).openai.regions).toEqual([]);
    for (const bad of ['eu', 'eu=', '=https://x.example', 'EU=https://x.example', 'eu=ftp://x.example', 'eu=https://a.example,eu=https://b.example']) {
      expect(() => loadConfig({ ...env, OPENAI_REGIONS: bad }), bad).toThrow(/OPENAI_REGIONS: must be comma-separated name=URL pairs/);
    }
  });
});

describe('the model region', () => {
  let base: FakeOpenAI;
  let eu: FakeOpenAI;
  let us: FakeOpenAI;
  let graph: FakeGraph;
  let server: TestServer;
  let boss: HttpClient;

  beforeAll(async () => {
    [base, eu, us, graph] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOpenAI(), startFakeGraph()]);
    server = await startTestServer({
      DEMO_MODE: 'false',
      ORG_ADMINS: 'boss',
      OPENAI_API_KEY: 'sk-test-regions',
      OPENAI_BASE_URL: base.url,
      OPENAI_REGIONS: `eu=${eu.url}, us=${us.url}`,
      MICROSOFT_GRAPH_BASE_URL: graph.url,
      MICROSOFT_MEETING_DEBRIEFS: 'on',
    });
    ({ http: boss } = await signUp(server.url, 'boss', 'The Boss'));
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([base?.close(), eu?.close(), us?.close(), graph?.close()]);
  });

  async function chatOnce(http: HttpClient, text: string) {
    const chat = await http.post('/api/chats', { title: 'Region check' });
    expect(chat.status).toBe(201);
    expect((await http.post(`/api/chats/${chat.json.id}/messages`, { content: text })).status).toBe(201);
    await eventually(async () => {
      const messages = (await http.get(`/api/chats/${chat.json.id}/messages`)).json as Array<{ role: string; status: string }>;
      return messages.some((m) => m.role === 'assistant' && m.status === 'complete');
    }, 20_000);
  }
  const saw = (fake: FakeOpenAI, text: string) => fake.replyRequests().some((r) => JSON.stringify(r.body.messages).includes(text));

  it('lists the configured regions, sends the members’ coach to the chosen one, and refuses one not configured', async () => {
    expect((await boss.get('/api/admin/organisation')).json).toMatchObject({ modelRegion: null, modelRegions: ['eu', 'us'] });
    const { http } = await signUp(server.url, 'regional_member', 'Rita Region');

    await chatOnce(http, 'first-default-turn');
    expect(saw(base, 'first-default-turn')).toBe(true);
    expect(saw(eu, 'first-default-turn') || saw(us, 'first-default-turn')).toBe(false);

    const chosen = await boss.request('PATCH', '/api/admin/organisation', { modelRegion: 'us' });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.json).toMatchObject({ modelRegion: 'us', modelRegions: ['eu', 'us'] });
    await chatOnce(http, 'second-us-turn');
    expect(saw(us, 'second-us-turn')).toBe(true);
    expect(saw(base, 'second-us-turn') || saw(eu, 'second-us-turn')).toBe(false);

    // The OpenAI-compatible API of the same member goes there too.
    const key = (await http.post('/api/api-keys', { name: 'script' })).json.key as string;
    const api = await new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } }).post('/api/openai/chat/completions', { model: 'sk', messages: [{ role: 'user', content: 'third-api-turn' }] });
    expect(api.status, api.text).toBe(200);
    expect(us.requests.some((r) => JSON.stringify(r.body.messages).includes('third-api-turn'))).toBe(true);

    expect((await boss.request('PATCH', '/api/admin/organisation', { modelRegion: 'EU' })).json).toMatchObject({ modelRegion: 'eu' });
    await chatOnce(http, 'fourth-eu-turn');
    expect(saw(eu, 'fourth-eu-turn')).toBe(true);

    const refused = await boss.request('PATCH', '/api/admin/organisation', { modelRegion: 'mars' });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(organisationTexts.modelRegionNotConfigured('mars', ['eu', 'us']));
    expect((await boss.get('/api/admin/organisation')).json.modelRegion).toBe('eu');

    expect((await boss.request('PATCH', '/api/admin/organisation', { modelRegion: null })).json.modelRegion).toBeNull();
    await chatOnce(http, 'fifth-default-turn');
    expect(saw(base, 'fifth-default-turn')).toBe(true);
  });
  // The JSON-schema calls (not streamed) by their schema's name, and whether one carries a marker.
  const schemaOf = (body: FakeChatRequest) => (body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  const asked = (fake: FakeOpenAI, schema: string, marker: string) => fake.requests.some((r: ReceivedRequest) => schemaOf(r.body) === schema && JSON.stringify(r.body.messages).includes(marker));
  // Every fake answers: an empty list of memories, a judgement or a reading that is not kept, a reply.
  const answers = (body: FakeChatRequest): string => (schemaOf(body) === 'memories' ? '{"memories":[]}' : schemaOf(body) ? '{}' : 'Noted.');
  const setRegion = async (modelRegion: string | null) => expect((await boss.request('PATCH', '/api/admin/organisation', { modelRegion })).json.modelRegion).toBe(modelRegion);
  const webm = Buffer.from('1a45dfa3a342868101', 'hex');

  /** A member whose calendar is the fake Graph's mailbox of 'Dana Reyes', with an ended Teams meeting whose transcript carries `marker`. */
  async function memberWithMeeting(name: string, marker: string) {
    const token = `calendar-token-of-${name}`;
    const box = graph.addMailbox({ tokens: [token], displayName: 'Dana Reyes', mail: `${name}@contoso.example` });
    const account = await signUp(server.url, name, `User ${name}`);
    expect((await account.http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    const hour = 3_600_000;
    const [meetingId] = box.addEvents([
      { subject: 'Budget review', start: new Date(Date.now() - 2 * hour).toISOString(), end: new Date(Date.now() - hour).toISOString(), isOnline: true, attendees: [{ name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' }] },
    ]);
    if (!meetingId) throw new Error('the fake Graph made no meeting');
    box.addTranscript(
      meetingId,
      `WEBVTT\n\n00:00:00.000 --> 00:00:10.000\n<v Dana Reyes>${marker} thanks for joining. What would make this useful?</v>\n\n00:00:10.000 --> 00:00:20.000\n<v Sam Lee>The budget numbers.</v>\n`,
    );
    return { ...account, meetingId };
  }

  /** A rehearsal with one turn of the user's (carrying `marker`), then its report asked for: its judged part. */
  async function rehearseAndReview(http: HttpClient, marker: string) {
    const rehearsal = (await http.post('/api/rehearsals', rehearsalSetUp)).json as { id: number; chatId: number };
    expect((await http.post(`/api/chats/${rehearsal.chatId}/messages`, { content: `Can we agree on the new date by Friday? ${marker}` })).status).toBe(201);
    await server.deps.replies.settled();
    const feedback = await http.post(`/api/rehearsals/${rehearsal.id}/feedback`);
    expect(feedback.status, feedback.text).toBe(200);
    return feedback.json.report.judged;
  }

  it("asks memory extraction, the rehearsal judge and the debrief reader in the organisation's region, not at OPENAI_BASE_URL", async () => {
    for (const fake of [base, eu, us]) fake.reset();
    for (const fake of [base, eu, us]) fake.behave({ reply: answers });
    const { http, meetingId } = await memberWithMeeting('regional_reader', 'DEBRIEF-MARKER-EU');
    await setRegion('eu');
    try {
      // Memory extraction: after the reply to a message that may hold a fact.
      await chatOnce(http, 'I lead a team of 8 engineers MEMORY-MARKER-EU');
      await server.deps.replies.settled();
      expect(asked(eu, 'memories', 'MEMORY-MARKER-EU')).toBe(true);
      expect(asked(base, 'memories', 'MEMORY-MARKER-EU') || asked(us, 'memories', 'MEMORY-MARKER-EU')).toBe(false);

      // The rehearsal judge.
      await rehearseAndReview(http, 'JUDGE-MARKER-EU');
      expect(asked(eu, 'rehearsal_report', 'JUDGE-MARKER-EU')).toBe(true);
      expect(asked(base, 'rehearsal_report', 'JUDGE-MARKER-EU') || asked(us, 'rehearsal_report', 'JUDGE-MARKER-EU')).toBe(false);

      // The debrief reader.
      const debrief = await http.post(`/api/meetings/${meetingId}/debrief`);
      expect(debrief.status, debrief.text).toBe(201);
      expect(asked(eu, 'meeting_debrief', 'DEBRIEF-MARKER-EU')).toBe(true);
      expect(asked(base, 'meeting_debrief', 'DEBRIEF-MARKER-EU') || asked(us, 'meeting_debrief', 'DEBRIEF-MARKER-EU')).toBe(false);
    } finally {
      await setRegion(null);
    }
    // Back to the default: the next extraction is asked at OPENAI_BASE_URL.
    await chatOnce(http, 'I lead a team of 9 engineers MEMORY-MARKER-DEFAULT');
    await server.deps.replies.settled();
    expect(asked(base, 'memories', 'MEMORY-MARKER-DEFAULT')).toBe(true);
    expect(asked(eu, 'memories', 'MEMORY-MARKER-DEFAULT')).toBe(false);
  });

  it("sends speech to text (JSON and a streamed upload) and speech to the organisation's region, not to OPENAI_BASE_URL", async () => {
    for (const fake of [base, eu, us]) fake.reset();
    const { http } = await signUp(server.url, 'regional_speaker', 'Sue Speaker');
    const transcribeJson = () => http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') });
    const transcribeUpload = () => fetch(`${server.url}/api/voice/transcribe`, { method: 'POST', headers: { cookie: http.cookieHeader, origin: server.url, 'content-type': 'audio/webm' }, body: webm });
    const speak = () => http.post('/api/voice/synthesize', { text: 'Hello there', voice: 'alloy' });
    const paths = (fake: FakeOpenAI) => fake.audioRequests.map((r) => r.path);

    // No region: OPENAI_BASE_URL.
    expect((await transcribeJson()).status).toBe(200);
    expect(paths(base)).toEqual(['/v1/audio/transcriptions']);

    await setRegion('us');
    try {
      base.reset();
      expect((await transcribeJson()).status).toBe(200);
      expect((await transcribeUpload()).status).toBe(200);
      expect((await speak()).status).toBe(200);
      expect(paths(us)).toEqual(['/v1/audio/transcriptions', '/v1/audio/transcriptions', '/v1/audio/speech']);
      expect(us.audioRequests[1]).toMatchObject({ fileName: 'speech.webm', fileBytes: webm.byteLength });
      expect(paths(base)).toEqual([]);
      expect(paths(eu)).toEqual([]);
    } finally {
      await setRegion(null);
    }
  });

  it('sends nothing anywhere for a member whose region was removed from OPENAI_REGIONS since it was chosen', async () => {
    for (const fake of [base, eu, us]) fake.reset();
    for (const fake of [base, eu, us]) fake.behave({ reply: answers });
    const { http, meetingId } = await memberWithMeeting('removed_region', 'DEBRIEF-MARKER-GONE');
    // Only the start's configuration can take a region away: the row is set as such a start leaves it.
    await server.deps.orm.em.fork().getConnection().execute(`update "organisation" set "model_region" = 'gone'`);
    const none = () => [base, eu, us].every((fake) => fake.requests.length === 0 && fake.audioRequests.length === 0);
    try {
      // Speech: refused with the voice's message.
      expect((await http.post('/api/voice/transcribe', { audioBlob: webm.toString('base64') })).status).toBe(502);
      expect((await http.post('/api/voice/synthesize', { text: 'Hello there', voice: 'alloy' })).status).toBe(502);
      // The debrief: read by the offline coach.
      const debrief = await http.post(`/api/meetings/${meetingId}/debrief`);
      expect(debrief.status, debrief.text).toBe(201);
      expect(debrief.json.debrief.coach.by).toBe('offline');
      expect(none()).toBe(true);
    } finally {
      await setRegion(null);
    }
  });
});
